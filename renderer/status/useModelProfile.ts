import { useCallback, useEffect, useState } from 'react';
import type { Effort, ModelProfileView } from '../../common/modelCapabilities';
import { api } from '../api';

export interface ModelProfileState {
  /** What the next task runs with; null until main answered. */
  profile: ModelProfileView | null;
  /** The session's effort (the next request carries it); resolves whether main accepted it. */
  setEffort(effort: Effort): Promise<boolean>;
}

/**
 * The model profile main resolves (`model.profile`), asked again when the session or the saved
 * settings change, and kept current by `model.changed` (the catalogue arrived, an effort picked).
 */
export function useModelProfile(sessionId: string | null, settingsKey: string): ModelProfileState {
  const [profile, setProfile] = useState<ModelProfileView | null>(null);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.on('model.changed', (view) => setProfile(view));
    void api.request('model.profile', {}).then((result) => {
      if (live && result.ok) setProfile(result.value);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId, settingsKey]);

  const setEffort = useCallback(async (effort: Effort) => {
    const result = await api.request('model.setEffort', { effort });
    if (result.ok) setProfile(result.value);
    return result.ok;
  }, []);

  return { profile, setEffort };
}
