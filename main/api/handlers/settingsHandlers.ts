import { ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

export function settingsHandlers(core: Pick<HandlerContext, 'settings' | 'refreshModels'>): Pick<Handlers, 'settings.get' | 'settings.update' | 'settings.testConnection'> {
  return {
    'settings.get': () => ok(core.settings.view()),
    'settings.update': async (patch) => {
      const updated = await core.settings.update(patch);
      if (updated.ok) core.refreshModels();
      return updated;
    },
    'settings.testConnection': async (input) => ok(await core.settings.testConnection(input)),
  };
}
