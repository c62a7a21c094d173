import { useCallback, useEffect, useState } from 'react';
import type { AppInfo, WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import { api } from '../api';
import { noHostReason, type NoHostReason } from '../api/unreachableTransport';

export interface WorkspaceState {
  /** Null until the host has answered. */
  app: AppInfo | null;
  /** The open folder; undefined until known, null when none is open. */
  workspace: WorkspaceInfo | null | undefined;
  open(path: string): Promise<Result<WorkspaceInfo>>;
  /** Why the host cannot be reached at all (no bridge, no token), or null. */
  hostError: NoHostReason | null;
  /** The host's native picker; resolves ok(null) when the person cancels. */
  choose(): Promise<Result<WorkspaceInfo | null>>;
}

/** The host and the open folder, kept current by `workspace.changed`. */
export function useWorkspace(): WorkspaceState {
  const [app, setApp] = useState<AppInfo | null>(null);
  const [workspace, setWorkspace] = useState<WorkspaceInfo | null | undefined>(undefined);
  const [hostError, setHostError] = useState<NoHostReason | null>(null);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.on('workspace.changed', (next) => setWorkspace(next));
    void api.request('app.info', {}).then((result) => {
      if (!live) return;
      if (result.ok) setApp(result.value);
      else if (noHostReason(result.error.details)) {
        // No host: show the welcome screen with the reason rather than an empty window.
        setHostError(noHostReason(result.error.details));
        setWorkspace((known) => (known === undefined ? null : known));
      }
    });
    void api.request('workspace.current', {}).then((result) => {
      if (live && result.ok) setWorkspace((known) => (known === undefined ? result.value : known));
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);

  const open = useCallback(async (path: string) => {
    const result = await api.request('workspace.open', { path });
    if (result.ok) setWorkspace(result.value);
    return result;
  }, []);

  const choose = useCallback(async () => {
    const result = await api.request('workspace.choose', {});
    if (result.ok && result.value) setWorkspace(result.value);
    return result;
  }, []);

  useEffect(() => {
    document.title = workspace ? `${workspace.name} — Keel` : 'Keel';
  }, [workspace]);

  return { app, workspace, hostError, open, choose };
}
