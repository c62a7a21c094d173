import { fail } from '../../../common/result';
import type { KeelCore } from '../core';
import type { Handlers } from '../dispatch';

const notYet = () => fail('unsupported', 'The Changes view is not available in this build yet.');

export function changesHandlers(_core: KeelCore): Pick<Handlers, 'changes.list' | 'changes.undo' | 'changes.redo'> {
  return { 'changes.list': notYet, 'changes.undo': notYet, 'changes.redo': notYet };
}
