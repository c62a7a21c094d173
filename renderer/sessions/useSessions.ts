import { useCallback, useEffect, useState } from 'react';
import type { RecentFolder, SessionSummary, WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import { api } from '../api';

export interface SessionsState {
  /** The open folder's sessions, newest first; null until known. */
  sessions: SessionSummary[] | null;
  recent: RecentFolder[];
  /** The last failed action, in main's words. */
  error: string | null;
  clearError(): void;
  newSession(): Promise<Result<WorkspaceInfo>>;
  openSession(id: string): Promise<Result<WorkspaceInfo>>;
  deleteSession(id: string): Promise<Result<{ deleted: boolean }>>;
}

/**
 * The open folder's sessions and the recent folders. Refreshed when the folder or session changes
 * and when a task starts or ends (a session's title comes from its first task, its state from the last).
 */
export function useSessions(workspace: WorkspaceInfo | null | undefined): SessionsState {
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [recent, setRecent] = useState<RecentFolder[]>([]);
  const [error, setError] = useState<string | null>(null);
  const path = workspace?.path ?? null;
  const sessionId = workspace?.sessionId ?? null;

  const refresh = useCallback(async () => {
    const [list, folders] = await Promise.all([api.request('session.list', {}), api.request('folders.recent', {})]);
    if (list.ok) setSessions(list.value);
    if (folders.ok) setRecent(folders.value);
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh, path, sessionId]);

  useEffect(
    () =>
      api.on('agent.event', (event) => {
        if (event.type === 'task_started' || event.type === 'task_finished') void refresh();
      }),
    [refresh],
  );
  // A plan marked done (or reopened) after the task changes how the session stands.
  useEffect(() => api.on('plan.changed', () => void refresh()), [refresh]);

  const act = useCallback(
    async <T>(run: () => Promise<Result<T>>): Promise<Result<T>> => {
      const result = await run();
      setError(result.ok ? null : result.error.message);
      await refresh();
      return result;
    },
    [refresh],
  );

  return {
    sessions,
    recent,
    error,
    clearError: () => setError(null),
    newSession: () => act(() => api.request('session.new', {})),
    openSession: (id) => act(() => api.request('session.open', { id })),
    deleteSession: (id) => act(() => api.request('session.delete', { id })),
  };
}
