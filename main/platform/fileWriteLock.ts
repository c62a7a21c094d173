/**
 * One writer of a file at a time, within this process: Keel's file tools hold it while they read
 * and replace a file, and a helper's merge while it checks that a file is still as it planned and
 * writes it. So an agent's write either lands before the merge's check (the merge sees it and
 * plans again) or after the merge's write (and replaces it whole): never in between, where the
 * merge would overwrite it unseen. Keyed by the absolute path both sides resolve (the workspace's
 * real path joined with the relative one).
 */
const tails = new Map<string, Promise<void>>();
const entered = new Map<string, number>();

export async function withFileWriteLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(file) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  tails.set(file, tail);
  entered.set(file, (entered.get(file) ?? 0) + 1);
  try {
    await previous;
    return await work();
  } finally {
    release();
    if (tails.get(file) === tail) tails.delete(file);
    const left = (entered.get(file) ?? 1) - 1;
    if (left === 0) entered.delete(file);
    else entered.set(file, left);
  }
}

/** How many hold or wait for the file's lock now (1: held, nobody waiting). */
export function fileWriteLockHolders(file: string): number {
  return entered.get(file) ?? 0;
}
