import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

type Context = Pick<HandlerContext, 'currentAgent' | 'currentSandbox' | 'modelProfile' | 'emit'>;

/** The model the next task runs with (Settings, the status bar's effort) and the open folder's sandbox state. */
export function modelHandlers(core: Context): Pick<Handlers, 'model.profile' | 'model.setEffort' | 'sandbox.status'> {
  return {
    'model.profile': async () => ok(await core.modelProfile()),
    'model.setEffort': async ({ effort }) => {
      const agent = core.currentAgent;
      if (!agent) return fail(ErrorCodes.noWorkspace, 'No folder is open. Open a folder for the agent to work in first.');
      const { levels } = (await core.modelProfile()).effort;
      if (!levels.includes(effort)) {
        const offered = levels.length ? `It offers: ${levels.join(', ')}.` : 'It has no effort levels.';
        return fail(ErrorCodes.badRequest, `The model does not offer the effort "${effort}". ${offered}`, { fields: [{ path: 'effort', message: offered }] });
      }
      agent.effort.set(effort);
      const view = await core.modelProfile();
      core.emit('model.changed', view);
      return ok(view);
    },
    'sandbox.status': () => ok(core.currentSandbox?.status ?? null),
  };
}
