/**
 * Reads until `ok` holds, every `everyMs`; fails after `timeoutMs` saying what it waited for and
 * the last value read.
 */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)?.slice(-500)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
