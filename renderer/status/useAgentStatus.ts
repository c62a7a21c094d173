import { useCallback, useEffect, useState } from 'react';
import type { ApprovalMode } from '../../common/approvals';
import type { AgentState, Usage } from '../../common/agentEvents';
import { unfinishedItems } from '../../common/plan/render';
import { settledAgentState } from '../../common/plan/sessionState';
import { api } from '../api';
import { openPlan } from '../plan/windowOpenPlan';

export interface AgentStatusView {
  state: AgentState;
  running: boolean;
  /** The model main reported with the status. */
  model: string | null;
  /** The open session's tokens so far. */
  usage: Usage;
  /** The open session's approval mode. */
  approvalMode: ApprovalMode | null;
  /** Changes the open session's approval mode; resolves whether main accepted it. */
  setApprovalMode(mode: ApprovalMode): Promise<boolean>;
  /** Forgets a finished task's error (the settings were fixed): the state reads Idle again. */
  clearError(): void;
}

const noUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };

/**
 * What the agent is doing and what the session has used: `agent.status` when the window opens or
 * the session changes, then kept current by `agent.event` (`state`, `usage`, task start and end).
 */
export function useAgentStatus(sessionId: string | null): AgentStatusView {
  const [status, setStatus] = useState<Omit<AgentStatusView, 'setApprovalMode' | 'clearError'>>({
    state: 'idle',
    running: false,
    model: null,
    usage: noUsage,
    approvalMode: null,
  });
  // The plan's open steps: a task that ended with steps open is not "Done", one marked done is (16.4).
  const [openSteps, setOpenSteps] = useState<number | undefined>(undefined);
  const [openAtEnd, setOpenAtEnd] = useState<number | undefined>(undefined);

  useEffect(() => {
    let live = true;
    setOpenSteps(undefined);
    const unsubscribe = api.on('plan.changed', (plan) => setOpenSteps(unfinishedItems(plan.items).length));
    void openPlan.request().then((result) => {
      if (live && result.ok) setOpenSteps((current) => current ?? unfinishedItems(result.value.items).length);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId]);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.on('agent.event', (event) => {
      if (event.type === 'state') setStatus((current) => ({ ...current, state: event.state }));
      else if (event.type === 'usage') setStatus((current) => ({ ...current, usage: event.session }));
      else if (event.type === 'task_started') setStatus((current) => ({ ...current, running: true }));
      else if (event.type === 'task_finished') {
        setStatus((current) => ({ ...current, running: false }));
        setOpenAtEnd(event.openSteps);
      }
    });
    const stopMode = api.on('approval.modeChanged', ({ mode }) => setStatus((current) => ({ ...current, approvalMode: mode })));
    void api.request('agent.status', {}).then((result) => {
      if (!live || !result.ok) return;
      const { state, running, model, usage, approvalMode } = result.value;
      setStatus({ state, running, model, usage, approvalMode });
      setOpenAtEnd(result.value.openAtEnd);
    });
    return () => {
      live = false;
      unsubscribe();
      stopMode();
    };
  }, [sessionId]);

  const setApprovalMode = useCallback(async (mode: ApprovalMode) => {
    const result = await api.request('approval.setMode', { mode });
    if (result.ok) setStatus((current) => ({ ...current, approvalMode: result.value.mode }));
    return result.ok;
  }, []);

  const clearError = useCallback(() => setStatus((current) => (current.state === 'error' && !current.running ? { ...current, state: 'idle' } : current)), []);

  return { ...status, state: settledAgentState(status.state, status.running, openSteps, openAtEnd), setApprovalMode, clearError };
}
