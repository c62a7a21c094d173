import { useEffect, useState } from 'react';
import { api } from '../api';

/**
 * Whether the open session's last task was stopped by the completion gate with its plan
 * unfinished: live from `task_finished`, and on opening from the agent's state or, after a
 * restart, from the session's recorded last outcome.
 */
export function useStoppedUnfinished(sessionId: string): { stopped: boolean; running: boolean } {
  const [stopped, setStopped] = useState(false);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    let live = true;
    setStopped(false);
    const unsubscribe = api.on('agent.event', (event) => {
      if (event.type === 'task_started') {
        setRunning(true);
        setStopped(false);
      } else if (event.type === 'task_finished') {
        setRunning(false);
        setStopped(event.outcome === 'stopped_unfinished');
      }
    });
    void (async () => {
      const status = await api.request('agent.status', {});
      if (!live || !status.ok) return;
      setRunning(status.value.running);
      if (status.value.running) return;
      if (status.value.state !== 'idle') {
        setStopped(status.value.state === 'stopped_unfinished');
        return;
      }
      const sessions = await api.request('session.list', {});
      if (!live || !sessions.ok) return;
      setStopped(sessions.value.find((session) => session.id === sessionId)?.lastOutcome === 'stopped_unfinished');
    })();
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId]);

  return { stopped, running };
}
