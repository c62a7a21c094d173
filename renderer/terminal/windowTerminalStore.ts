import type { KeelApi } from '../../common/contract';
import { TerminalStore } from './terminalStore';

let store: TerminalStore | undefined;
let onMade: ((store: TerminalStore) => void) | undefined;

/** The window's one terminal store, made on first use. */
export function terminalStore(api: KeelApi): TerminalStore {
  if (!store) {
    store = new TerminalStore(api);
    onMade?.(store);
  }
  return store;
}

/** Test builds only (see terminalPart.ts): told of the store as it is made, before it has a shell tab. */
export function watchStoreMade(listener: (store: TerminalStore) => void): void {
  onMade = listener;
}
