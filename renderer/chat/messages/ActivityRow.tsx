import type { AgentState } from '../../../common/agentEvents';
import { useI18n } from '../../i18n/I18nProvider';
import { Spinner } from '../../ui/icons';

const labels: Partial<Record<AgentState, 'chat.activity.thinking' | 'chat.activity.tool' | 'chat.activity.approval'>> = {
  thinking: 'chat.activity.thinking',
  running_tool: 'chat.activity.tool',
  waiting_approval: 'chat.activity.approval',
};

/** The last line while a task runs: what the agent is doing now. */
export function ActivityRow({ state, streaming, retry }: { state: AgentState; streaming: boolean; retry: { attempt: number; reason: string } | null }) {
  const { t } = useI18n();
  const label = retry
    ? t('chat.activity.retry', { attempt: retry.attempt })
    : streaming
      ? t('chat.activity.writing')
      : t(labels[state] ?? 'chat.activity.working');
  return (
    <div className={`chat-activity activity-${state}`} data-agent-state={state}>
      {state === 'waiting_approval' ? <span className="activity-dot" aria-hidden="true" /> : <Spinner />}
      <span title={retry?.reason}>{label}</span>
      <span className="activity-hint">{t('chat.activity.stopHint')}</span>
    </div>
  );
}
