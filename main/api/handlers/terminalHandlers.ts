import { fail } from '../../../common/result';
import type { KeelCore } from '../core';
import type { Handlers } from '../dispatch';

const notYet = () => fail('unsupported', 'The integrated terminal is not available in this build yet.');

export function terminalHandlers(_core: KeelCore): Pick<Handlers, 'terminal.create' | 'terminal.list' | 'terminal.input' | 'terminal.resize' | 'terminal.ack' | 'terminal.close'> {
  return { 'terminal.create': notYet, 'terminal.list': notYet, 'terminal.input': notYet, 'terminal.resize': notYet, 'terminal.ack': notYet, 'terminal.close': notYet };
}
