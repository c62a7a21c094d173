import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

const NO_FOLDER = 'No folder is open, so there are no changes to undo or redo. Open a folder first.';

export function changesHandlers(core: Pick<HandlerContext, 'currentChanges'>): Pick<Handlers, 'changes.list' | 'changes.undo' | 'changes.redo'> {
  return {
    /** No folder open: nothing was changed, which is an empty list rather than an error. */
    'changes.list': async () => ok((await core.currentChanges?.list()) ?? []),
    'changes.undo': (input) => core.currentChanges?.undo(input) ?? fail(ErrorCodes.noWorkspace, NO_FOLDER),
    'changes.redo': (input) => core.currentChanges?.redo(input) ?? fail(ErrorCodes.noWorkspace, NO_FOLDER),
  };
}
