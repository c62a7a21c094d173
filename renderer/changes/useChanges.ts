import { useCallback, useEffect, useRef, useState } from 'react';
import type { TaskChanges } from '../../common/contract';
import { api } from '../api';
import { changedFileCount } from './changedFiles';

export interface ChangesState {
  /** Tasks oldest first, as main keeps them; null until it has answered. */
  tasks: TaskChanges[] | null;
  /** Why the list could not be read (shown in the panel). */
  error: string | null;
  /** Files the agent's changes still apply to, over all tasks: the header badge. */
  appliedCount: number;
  refresh(): void;
}

/** What the agent changed in the open session; read again whenever main says it changed. */
export function useChanges(sessionId: string | null): ChangesState {
  const [tasks, setTasks] = useState<TaskChanges[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useRef<() => void>(() => undefined);

  useEffect(() => {
    setTasks(null);
    setError(null);
    if (sessionId === null) return;
    let live = true;
    let sequence = 0;
    load.current = () => {
      // Only the newest answer counts: an older one may arrive after it.
      const mine = ++sequence;
      void api.request('changes.list', {}).then((result) => {
        if (!live || mine !== sequence) return;
        if (result.ok) {
          setTasks(result.value);
          setError(null);
        } else setError(result.error.message);
      });
    };
    load.current();
    const unsubscribe = api.on('changes.changed', () => load.current());
    return () => {
      live = false;
      load.current = () => undefined;
      unsubscribe();
    };
  }, [sessionId]);

  const refresh = useCallback(() => load.current(), []);
  const appliedCount = changedFileCount(tasks);
  return { tasks, error, appliedCount, refresh };
}
