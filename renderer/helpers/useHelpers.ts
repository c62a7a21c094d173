import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { api } from '../api';
import { HelperStore, type HelpersSnapshot } from './helperStore';

/** The open session's helpers for the board: a store per session, loaded when the board opens. */
export function useHelpers(sessionId: string): { store: HelperStore; helpers: HelpersSnapshot } {
  // A new session starts from a new store: the session is its key.
  const store = useMemo(() => new HelperStore(api, sessionId), [sessionId]);
  useEffect(() => store.start(), [store]);
  const helpers = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return { store, helpers };
}
