import type { ApprovalDecision, ApprovalRequest } from '../../common/approvals';
import { useI18n } from '../i18n/I18nProvider';

/** The arguments an MCP tool is about to be called with, as the model sent them. */
export function McpArguments({ mcp }: { mcp: NonNullable<ApprovalRequest['mcp']> }) {
  const { t } = useI18n();
  return (
    <div className="approval-mcp">
      <span className="approval-mcp-label">{t('chat.approval.mcpArguments')}</span>
      <pre className="command-line approval-command">{mcp.arguments}</pre>
    </div>
  );
}

/** For an MCP tool: allow this tool or its whole server for the session, or this tool always (kept in the settings). */
export function McpAllowButtons({ request, sent, answer }: { request: ApprovalRequest; sent: boolean; answer: (decision: ApprovalDecision) => void }) {
  const { t } = useI18n();
  const server = request.mcp?.server ?? '';
  return (
    <>
      <button type="button" className="button approval-session" disabled={sent} onClick={() => answer({ decision: 'allow_session', scope: 'tool' })}>
        {t('chat.approval.allowTool')}
      </button>
      {request.serverRule ? (
        <button type="button" className="button approval-session" disabled={sent} onClick={() => answer({ decision: 'allow_session', scope: 'server' })}>
          {t('chat.approval.allowServer', { server })}
        </button>
      ) : null}
      <button
        type="button"
        className="button approval-session"
        disabled={sent}
        onClick={() => answer({ decision: 'allow_session', scope: 'tool', always: true })}
      >
        {t('chat.approval.allowAlways')}
      </button>
    </>
  );
}
