const shown = new Set<string>();

/**
 * Runs `call` (a synchronous SDK call) so that the SDK's "is deprecated" warnings reach the
 * console once per process rather than once per request. The SDK writes them with console.warn
 * from inside messages.create(), synchronously, on every call with a model on its deprecation
 * list; any other warning passes through untouched.
 */
export function withDeprecationWarningsOnce<T>(call: () => T): T {
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === 'string' && first.includes(' is deprecated')) {
      if (shown.has(first)) return;
      shown.add(first);
    }
    original.apply(console, args);
  };
  try {
    return call();
  } finally {
    console.warn = original;
  }
}
