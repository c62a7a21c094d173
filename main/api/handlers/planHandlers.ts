import { ErrorCodes, type PlanConflictDetails, type PlanInvalidDetails } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import { snapshot } from '../snapshots';
import type { Handlers } from '../dispatch';

export function planHandlers(core: Pick<HandlerContext, 'currentSession'>): Pick<Handlers, 'plan.get' | 'plan.edit'> {
  return {
    'plan.get': () => ok(snapshot(core.currentSession?.plan)),
    'plan.edit': ({ baseVersion, items }) => {
      const session = core.currentSession;
      if (!session) return fail(ErrorCodes.noWorkspace, 'No folder is open. Open a folder first; its plan is kept with it.');
      const result = session.plan.propose(items, { source: 'user', baseVersion });
      if (result.ok) return ok(snapshot(session.plan));
      if (result.reason === 'conflict') {
        return fail(
          ErrorCodes.planConflict,
          `The plan changed while you were editing it (you edited version ${baseVersion}, it is now version ${session.plan.version}). Your edit was not applied; the board now shows the current plan.`,
          { current: snapshot(session.plan) } satisfies PlanConflictDetails,
        );
      }
      return fail(ErrorCodes.planInvalid, result.error.message, { problems: result.error.problems } satisfies PlanInvalidDetails);
    },
  };
}
