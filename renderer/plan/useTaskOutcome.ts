import { useEffect, useState } from 'react';
import type { AgentState, TaskOutcome } from '../../common/agentEvents';
import { api } from '../api';

const outcomeOfState: Partial<Record<AgentState, TaskOutcome>> = {
  done: 'done',
  stopped_unfinished: 'stopped_unfinished',
  cancelled: 'cancelled',
  error: 'error',
};

/**
 * How the open session's last task ended, as recorded: live from `task_finished`, and on opening
 * from the agent's state or, after a restart, from the session's recorded last outcome. The board
 * settles it against the plan as it stands (common/plan/sessionState.ts).
 */
export function useTaskOutcome(sessionId: string): { outcome: TaskOutcome | null; running: boolean; openAtEnd: number | undefined } {
  const [outcome, setOutcome] = useState<TaskOutcome | null>(null);
  const [openAtEnd, setOpenAtEnd] = useState<number | undefined>(undefined);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    let live = true;
    setOutcome(null);
    setOpenAtEnd(undefined);
    const unsubscribe = api.on('agent.event', (event) => {
      if (event.type === 'task_started') {
        setRunning(true);
        setOutcome(null);
      } else if (event.type === 'task_finished') {
        setRunning(false);
        setOutcome(event.outcome);
        setOpenAtEnd(event.openSteps);
      }
    });
    void (async () => {
      const status = await api.request('agent.status', {});
      if (!live || !status.ok) return;
      setRunning(status.value.running);
      if (status.value.running) return;
      if (status.value.state !== 'idle') {
        setOutcome(outcomeOfState[status.value.state] ?? null);
        setOpenAtEnd(status.value.openAtEnd);
        return;
      }
      const sessions = await api.request('session.list', {});
      if (!live || !sessions.ok) return;
      const session = sessions.value.find((s) => s.id === sessionId);
      setOutcome(session?.lastOutcome ?? null);
      setOpenAtEnd(session?.openAtEnd);
    })();
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId]);

  return { outcome, running, openAtEnd };
}
