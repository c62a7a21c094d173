import { ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

export function settingsHandlers(core: Pick<HandlerContext, 'settings'>): Pick<Handlers, 'settings.get' | 'settings.update' | 'settings.testConnection'> {
  return {
    'settings.get': () => ok(core.settings.view()),
    'settings.update': (patch) => core.settings.update(patch),
    'settings.testConnection': async (input) => ok(await core.settings.testConnection(input)),
  };
}
