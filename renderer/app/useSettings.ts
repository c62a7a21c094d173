import { useCallback, useEffect, useState } from 'react';
import type { Result } from '../../common/result';
import type { SettingsUpdate, SettingsView } from '../../common/settings';
import { api } from '../api';

export interface SettingsState {
  /** Null until main has answered. */
  view: SettingsView | null;
  /** A problem reading the settings (e.g. a broken settings file), in main's words. */
  loadError: string | null;
  update(patch: SettingsUpdate): Promise<Result<SettingsView>>;
  reload(): Promise<void>;
}

/** The settings as main keeps them; every change goes through `settings.update`. */
export function useSettings(): SettingsState {
  const [view, setView] = useState<SettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const result = await api.request('settings.get', {});
    if (result.ok) {
      setView(result.value);
      setLoadError(null);
    } else setLoadError(result.error.message);
  }, []);

  useEffect(() => {
    void reload();
    // A mode chosen in the status bar is kept as the default for new sessions.
    return api.on('approval.modeChanged', () => void reload());
  }, [reload]);

  const update = useCallback(async (patch: SettingsUpdate) => {
    const result = await api.request('settings.update', patch);
    if (result.ok) setView(result.value);
    return result;
  }, []);

  return { view, loadError, update, reload };
}
