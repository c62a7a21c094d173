import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ApprovalDecision, ApprovalRequest } from '../../common/approvals';
import { useI18n, type Translate } from '../i18n/I18nProvider';
import { useChat } from './chatContext';
import { ShieldIcon } from '../ui/icons';
import { McpAllowButtons, McpArguments } from './McpApproval';
import { NetworkAllowButtons, NetworkTarget } from './NetworkApproval';
import { diffFromUnified } from './tools/diffLines';
import { DiffStat, DiffTable } from './tools/DiffTable';

/** What "Allow for this session" covers, in words: "npm commands", "file changes in this folder". */
export function ruleText(rule: string, language: string, t: Translate): string {
  if (rule === 'file_change') return t('chat.approval.rule.files');
  if (rule.startsWith('command:')) {
    const programs = rule.slice('command:'.length).split(' ').filter(Boolean);
    if (programs.length === 1) return t('chat.approval.rule.command', { program: programs[0]! });
    return t('chat.approval.rule.commands', { programs: new Intl.ListFormat(language, { type: 'conjunction' }).format(programs) });
  }
  if (rule.startsWith('tool:')) return t('chat.approval.rule.tool', { tool: rule.slice('tool:'.length) });
  if (rule.startsWith('network:')) return t('chat.approval.rule.network', { host: rule.slice('network:'.length) });
  if (rule === 'sandbox:commands') return t('chat.approval.rule.sandbox');
  return rule;
}

/**
 * A tool call waiting for the person: exactly what will run (the command) or change (the diff),
 * with Allow once, Allow for this session (and what that covers), and Deny with an optional reason
 * that goes to the model. Focus moves to the card when it appears.
 */
export function ApprovalCard({ request, autoFocus }: { request: ApprovalRequest; autoFocus: boolean }) {
  const { t, language } = useI18n();
  const { store } = useChat();
  const [reason, setReason] = useState('');
  const [sent, setSent] = useState(false);
  const card = useRef<HTMLElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const diff = useMemo(() => (request.diff === undefined ? null : diffFromUnified(request.diff)), [request.diff]);
  const command = request.command !== undefined;

  useEffect(() => {
    if (autoFocus) card.current?.focus({ preventScroll: false });
  }, [autoFocus]);

  const answer = (decision: ApprovalDecision) => {
    if (sent) return;
    setSent(true);
    void store.respond(request, decision);
  };
  const deny = () => answer(reason.trim() ? { decision: 'deny', reason: reason.trim() } : { decision: 'deny' });

  return (
    <section
      ref={card}
      className="approval-card"
      tabIndex={-1}
      aria-labelledby={titleId}
      data-approval-id={request.id}
      data-tool={request.tool}
      data-helper={request.helper}
    >
      <header className="approval-head">
        <ShieldIcon />
        <h3 id={titleId}>
          {request.mcp
            ? t('chat.approval.mcpTitle', { tool: request.mcp.tool, server: request.mcp.server })
            : request.network
              ? t('chat.approval.networkTitle', { host: request.network.host })
              : command
                ? t('chat.approval.commandTitle')
                : request.diff !== undefined || request.path
                  ? t('chat.approval.fileTitle')
                  : t('chat.approval.toolTitle', { tool: request.tool })}
        </h3>
        {request.helper && <span className="approval-helper">{t('helpers.approvalBy', { owner: request.helper })}</span>}
        {request.path && <span className="approval-path">{request.path}</span>}
        {diff && diff.lines.length > 0 && <DiffStat diff={diff} />}
      </header>
      {command && (
        <pre className="command-line approval-command">
          <span className="command-prompt" aria-hidden="true">
            ${' '}
          </span>
          {request.command}
        </pre>
      )}
      {request.sandboxed && <p className="approval-sandbox">{t('chat.approval.sandboxed')}</p>}
      {request.alwaysAsks && (
        <p className="approval-always">
          {request.alwaysAsks.kind === 'leaves_sandbox'
            ? t('chat.approval.always.leavesSandbox')
            : request.alwaysAsks.kind === 'outside'
              ? t('chat.approval.always.outside', { targets: request.alwaysAsks.detail })
              : request.alwaysAsks.kind === 'wrapper'
                ? t('chat.approval.always.wrapper', { programs: request.alwaysAsks.detail })
                : t('chat.approval.always.unjudgeable')}
        </p>
      )}
      {request.mcp && <McpArguments mcp={request.mcp} />}
      {request.network && <NetworkTarget network={request.network} />}
      {diff && (
        <div className="approval-diff">
          <DiffTable diff={diff} label={t('chat.diff.label', { path: request.path ?? '' })} />
        </div>
      )}
      <div className="approval-actions">
        <button type="button" className="button button-primary" disabled={sent} onClick={() => answer({ decision: 'allow_once' })}>
          {t('chat.approval.allowOnce')}
        </button>
        {request.mcp ? (
          <McpAllowButtons request={request} sent={sent} answer={answer} />
        ) : request.network ? (
          <NetworkAllowButtons host={request.network.host} sent={sent} answer={answer} />
        ) : (
          // No rule covers a command that always asks: offering one would promise what it cannot keep.
          !request.alwaysAsks && (
            <button type="button" className="button approval-session" disabled={sent} onClick={() => answer({ decision: 'allow_session' })}>
              {t('chat.approval.allowSession')}
              <span className="approval-rule">{ruleText(request.sessionRule, language, t)}</span>
            </button>
          )
        )}
        <div className="approval-deny">
          <label className="visually-hidden" htmlFor={reasonId}>
            {t('chat.approval.reasonLabel')}
          </label>
          <input
            id={reasonId}
            className="text-input"
            value={reason}
            disabled={sent}
            placeholder={t('chat.approval.reasonPlaceholder')}
            onChange={(event) => setReason(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
                event.preventDefault();
                deny();
              }
            }}
          />
          <button type="button" className="button button-danger" disabled={sent} onClick={deny}>
            {t('chat.approval.deny')}
          </button>
        </div>
      </div>
      <p className="approval-hint">{t('chat.approval.hint')}</p>
    </section>
  );
}
