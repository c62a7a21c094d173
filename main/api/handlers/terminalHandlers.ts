import { ok } from '../../../common/result';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

/** The person's own shells in tabs; see TerminalManager for what each call does. */
export function terminalHandlers(
  core: Pick<HandlerContext, 'terminals'>,
): Pick<Handlers, 'terminal.create' | 'terminal.list' | 'terminal.input' | 'terminal.resize' | 'terminal.ack' | 'terminal.snapshot' | 'terminal.close'> {
  // Read at call time: the handlers are built while the core is still being constructed.
  const terminals = () => core.terminals;
  return {
    'terminal.create': ({ cols, rows }) => terminals().create({ cols, rows }),
    'terminal.list': () => ok(terminals().list()),
    'terminal.input': ({ id, data }) => terminals().input(id, data),
    'terminal.resize': ({ id, cols, rows }) => terminals().resize(id, { cols, rows }),
    'terminal.ack': ({ id, bytes, parseRate }) => terminals().ack(id, bytes, parseRate),
    'terminal.snapshot': ({ id }) => terminals().snapshot(id),
    'terminal.close': ({ id }) => terminals().close(id),
  };
}
