import type { ApprovalDecision, ApprovalRequest } from '../../common/approvals';
import { useI18n } from '../i18n/I18nProvider';

/** The URL a web fetch is about to read. */
export function NetworkTarget({ network }: { network: NonNullable<ApprovalRequest['network']> }) {
  const { t } = useI18n();
  return (
    <div className="approval-network">
      <pre className="command-line approval-command approval-url">{network.url}</pre>
      <p className="approval-hint">{t('chat.approval.networkAlwaysHelp', { host: network.host })}</p>
    </div>
  );
}

/** For a new host: allow it for this session, or always (kept in the settings' network.allow). */
export function NetworkAllowButtons({ host, sent, answer }: { host: string; sent: boolean; answer: (decision: ApprovalDecision) => void }) {
  const { t } = useI18n();
  return (
    <>
      <button type="button" className="button approval-session" disabled={sent} onClick={() => answer({ decision: 'allow_session' })}>
        {t('chat.approval.networkAllowSession', { host })}
      </button>
      <button type="button" className="button approval-session" disabled={sent} onClick={() => answer({ decision: 'allow_session', always: true })}>
        {t('chat.approval.networkAllowAlways', { host })}
      </button>
    </>
  );
}
