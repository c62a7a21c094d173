import { LazyPart } from '../ui/lazyPart';

/** The terminals (xterm.js and its stylesheet): a chunk of their own, loaded after the first paint. */
export const terminalPart = new LazyPart('terminal', async () => {
  const terminals = await import('./windowTerminalStore');
  // The browser tests' read-only hook probes every tab from its first output, so it is in place
  // before the store is made. Only a test build has this branch and the hook's chunk.
  if (__KEEL_TEST_HOOKS__) {
    const { installTestHook } = await import('./testHook');
    terminals.watchStoreMade(installTestHook);
  }
  return terminals;
});
