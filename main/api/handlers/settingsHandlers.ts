import { ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

type Context = Pick<HandlerContext, 'settings' | 'currentSession' | 'approvalMode' | 'emit' | 'refreshModels'>;

export function settingsHandlers(core: Context): Pick<Handlers, 'settings.get' | 'settings.update' | 'settings.testConnection'> {
  return {
    'settings.get': () => ok(core.settings.view()),
    'settings.update': async (patch) => {
      const result = await core.settings.update(patch);
      // A person who picks a mode in Settings means it now, not only for the next session: the open
      // session takes it as well, and every window's status bar hears it (the dialog says so).
      const session = core.currentSession;
      if (result.ok && patch.approvalMode !== undefined && session) {
        session.setApprovalMode(patch.approvalMode);
        core.emit('approval.modeChanged', { mode: core.approvalMode(session) });
      }
      if (result.ok) core.refreshModels();
      return result;
    },
    'settings.testConnection': async (input) => ok(await core.settings.testConnection(input)),
  };
}
