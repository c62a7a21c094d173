import type { AgentState } from '../../common/agentEvents';
import type { ApprovalMode } from '../../common/approvals';
import { useI18n } from '../i18n/I18nProvider';
import { COMPACT_NUMBER, numberFormat } from '../i18n/numberFormat';
import type { MessageKey } from '../i18n/messages';
import { ApprovalModeMenu } from './ApprovalModeMenu';
import { ContextMeter } from './ContextMeter';
import { EffortControl } from './EffortControl';
import { SandboxState } from './SandboxState';
import type { Effort, ModelProfileView } from '../../common/modelCapabilities';
import type { SandboxStatus } from '../../common/sandbox';
import { estimateCost } from './pricing';
import type { AgentStatusView } from './useAgentStatus';

export const STATE_LABELS: Record<AgentState, MessageKey> = {
  idle: 'status.state.idle',
  thinking: 'status.state.thinking',
  running_tool: 'status.state.running_tool',
  waiting_approval: 'status.state.waiting_approval',
  done: 'status.state.done',
  stopped_unfinished: 'status.state.stopped_unfinished',
  cancelled: 'status.state.cancelled',
  error: 'status.state.error',
};

interface Props {
  status: AgentStatusView;
  /** The model the agent will use (the settings, environment included). */
  model: string | null;
  approvalMode: ApprovalMode | null;
  onApprovalMode(mode: ApprovalMode): Promise<boolean>;
  /** Whether a folder is open: without one there is no agent to describe. */
  hasSession: boolean;
  /** Changes when the saved context window or threshold does, so the meter asks again. */
  contextSettingsKey: string;
  /** The model as the next task runs it (its effort levels); null until main answered. */
  profile: ModelProfileView | null;
  onEffort(effort: Effort): Promise<boolean>;
  /** The open folder's sandbox for the agent's commands. */
  sandbox: SandboxStatus | null;
}

/**
 * The window's bottom line: what the agent is doing (a word, not only a colour), the model and its
 * effort (changed from here), the session's tokens and estimated cost, whether commands run
 * sandboxed, and the approval mode, which can be changed from here.
 */
export function StatusBar({ status, model, approvalMode, onApprovalMode, hasSession, contextSettingsKey, profile, onEffort, sandbox }: Props) {
  const { t, language } = useI18n();
  const { usage, state } = status;
  const shownModel = model ?? status.model;
  // Made on use and kept: the first paint (no folder yet) formats no number.
  const compact = { format: (n: number) => numberFormat(language, COMPACT_NUMBER).format(n) };
  const full = { format: (n: number) => numberFormat(language).format(n) };
  const cost = shownModel ? estimateCost(shownModel, usage) : null;
  const hasCache = usage.cacheReadTokens > 0 || usage.cacheCreationTokens > 0;

  return (
    <footer className="status-bar">
      <span className="status-item status-state" data-state={hasSession ? state : 'idle'}>
        <span className="state-dot" aria-hidden="true" />
        <span className="visually-hidden">{t('status.stateLabel')} </span>
        <span aria-live="polite">{t(STATE_LABELS[hasSession ? state : 'idle'])}</span>
      </span>
      {shownModel ? (
        <span className="status-item status-model" title={t('status.modelTitle')}>
          <span className="visually-hidden">{t('status.modelLabel')} </span>
          <span className="mono">{shownModel}</span>
        </span>
      ) : null}
      {hasSession ? <EffortControl profile={profile} onChange={onEffort} /> : null}
      {hasSession ? (
        <span
          className="status-item status-tokens"
          title={t('status.tokensTitle', {
            input: full.format(usage.inputTokens),
            output: full.format(usage.outputTokens),
            cacheRead: full.format(usage.cacheReadTokens),
            cacheWrite: full.format(usage.cacheCreationTokens),
          })}
        >
          {t('status.tokens', { input: compact.format(usage.inputTokens), output: compact.format(usage.outputTokens) })}
          {hasCache ? (
            <span className="status-cache">
              {' · '}
              {t('status.cache', { read: compact.format(usage.cacheReadTokens), write: compact.format(usage.cacheCreationTokens) })}
            </span>
          ) : null}
        </span>
      ) : null}
      {hasSession && cost !== null ? (
        <span className="status-item status-cost" title={t('status.costTitle', { model: shownModel ?? '' })}>
          {t('status.cost', { cost: formatCost(cost, language) })}
        </span>
      ) : null}
      {hasSession ? <ContextMeter settingsKey={contextSettingsKey} /> : null}
      <span className="status-spacer" />
      {hasSession ? <SandboxState status={sandbox} /> : null}
      <ApprovalModeMenu mode={approvalMode} onChange={onApprovalMode} />
    </footer>
  );
}

function formatCost(dollars: number, language: string): string {
  const format = numberFormat(language, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: dollars < 1 ? 3 : 2 });
  return dollars > 0 && dollars < 0.001 ? `< ${format.format(0.001)}` : format.format(dollars);
}
