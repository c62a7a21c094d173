import type { KeelApi } from '../../common/contract';
import { installTestHook } from './testHook';
import { TerminalStore } from './terminalStore';

let store: TerminalStore | undefined;

/**
 * The window's one terminal store, made on first use. The browser tests' read-only hook is
 * attached here, beside the store rather than inside it, so the store does not depend on it.
 */
export function terminalStore(api: KeelApi): TerminalStore {
  if (!store) {
    store = new TerminalStore(api);
    installTestHook(store);
  }
  return store;
}
