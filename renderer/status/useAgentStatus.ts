import { useEffect, useState } from 'react';
import type { AgentState, Usage } from '../../common/agentEvents';
import { api } from '../api';

export interface AgentStatusView {
  state: AgentState;
  running: boolean;
  /** The model main reported with the status. */
  model: string | null;
  /** The open session's tokens so far. */
  usage: Usage;
}

const noUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };

/**
 * What the agent is doing and what the session has used: `agent.status` when the window opens or
 * the session changes, then kept current by `agent.event` (`state`, `usage`, task start and end).
 */
export function useAgentStatus(sessionId: string | null): AgentStatusView {
  const [status, setStatus] = useState<AgentStatusView>({ state: 'idle', running: false, model: null, usage: noUsage });

  useEffect(() => {
    let live = true;
    const unsubscribe = api.on('agent.event', (event) => {
      if (event.type === 'state') setStatus((current) => ({ ...current, state: event.state }));
      else if (event.type === 'usage') setStatus((current) => ({ ...current, usage: event.session }));
      else if (event.type === 'task_started') setStatus((current) => ({ ...current, running: true }));
      else if (event.type === 'task_finished') setStatus((current) => ({ ...current, running: false }));
    });
    void api.request('agent.status', {}).then((result) => {
      if (!live || !result.ok) return;
      const { state, running, model, usage } = result.value;
      setStatus({ state, running, model, usage });
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId]);

  return status;
}
