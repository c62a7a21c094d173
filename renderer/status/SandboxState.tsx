import type { SandboxStatus } from '../../common/sandbox';
import { useI18n, type Translate } from '../i18n/I18nProvider';

/** What confines the agent's commands, said in words (a colour alone is not enough), kept live by `sandbox.changed`. */
export function SandboxState({ status }: { status: SandboxStatus | null }) {
  const { t } = useI18n();
  if (!status) return null;
  const { text, title } = describe(status, t);
  return (
    <span className="status-item status-sandbox" data-sandbox={status.state} title={title}>
      <span className="sandbox-dot" aria-hidden="true" />
      <span aria-live="polite">{text}</span>
    </span>
  );
}

function describe(status: SandboxStatus, t: Translate): { text: string; title: string } {
  switch (status.state) {
    case 'checking':
      return { text: t('status.sandbox.checking'), title: t('status.sandbox.checking') };
    case 'on': {
      const text = status.via ? t('status.sandbox.onVia', { via: status.via }) : t('status.sandbox.on');
      if (!status.gaps?.length) return { text, title: t('status.sandbox.onTitle') };
      return {
        text: t('status.sandbox.onWithGaps', { text }),
        title: `${t('status.sandbox.onTitle')} ${t('status.sandbox.gapsTitle', { gaps: status.gaps.join('; ') })}`,
      };
    }
    case 'off':
      return { text: t('status.sandbox.off'), title: t('status.sandbox.offTitle') };
    case 'unavailable':
      return status.required
        ? { text: t('status.sandbox.required', { why: status.why }), title: t('status.sandbox.requiredTitle', { why: status.why }) }
        : { text: t('status.sandbox.unavailable', { why: status.why }), title: t('status.sandbox.unavailableTitle', { why: status.why }) };
    case 'unsandboxed':
      return { text: t('status.sandbox.unsandboxed'), title: t('status.sandbox.unsandboxedTitle') };
  }
}
