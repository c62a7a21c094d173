import type { KeelApi } from '../../common/contract';
import { TerminalStore } from './terminalStore';

let store: TerminalStore | undefined;

/**
 * The window's one terminal store, made on first use. The browser tests' read-only hook is
 * attached beside it, and only in a test build: elsewhere the branch and its chunk are not built.
 */
export function terminalStore(api: KeelApi): TerminalStore {
  if (!store) {
    const made = new TerminalStore(api);
    store = made;
    if (__KEEL_TEST_HOOKS__) void import('./testHook').then(({ installTestHook }) => installTestHook(made));
  }
  return store;
}
