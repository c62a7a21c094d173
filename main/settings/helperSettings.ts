import { HELPER_DEFAULTS } from '../../common/helpers';
import { readSettingsFile } from './modelSettings';

export interface HelperSettings {
  /** Helpers running at once. */
  max: number;
  /** A helper with no progress (no event of its agent) for this long is stopped as stalled. */
  stallSeconds: number;
}

/** The settings file's `helpers`, defaults filled in; a broken file gives the defaults (it is reported where the model settings are read). */
export function readHelperSettings(dataDir: string): HelperSettings {
  let helpers;
  try {
    helpers = readSettingsFile(dataDir).helpers;
  } catch {
    helpers = undefined;
  }
  return { max: helpers?.max ?? HELPER_DEFAULTS.max, stallSeconds: helpers?.stallSeconds ?? HELPER_DEFAULTS.stallSeconds };
}
