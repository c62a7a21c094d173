import { ok } from '../../../common/result';
import type { KeelCore } from '../core';
import type { Handlers } from '../dispatch';

export function settingsHandlers(core: KeelCore): Pick<Handlers, 'settings.get' | 'settings.update' | 'settings.testConnection'> {
  return {
    'settings.get': () => ok(core.settings.view()),
    'settings.update': (patch) => core.settings.update(patch),
    'settings.testConnection': async (input) => ok(await core.settings.testConnection(input)),
  };
}
