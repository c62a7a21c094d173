import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Written in slices so a cancel is noticed and a huge content is not one giant system call. */
const WRITE_SLICE_BYTES = 1024 * 1024;
/** Names stay under the usual 255-byte limit even for a long target name. */
const MAX_NAME_PART = 100;
const TEMP_SUFFIX = '.keel-tmp';

export interface AtomicWriteOptions {
  /** Permission bits to give the file (an overwritten file keeps its own); new files get the default. */
  mode?: number;
  signal?: AbortSignal;
  /** The rename that replaces the target; the file system's by default (tests inject a failing one). */
  rename?: (from: string, to: string) => Promise<void>;
  /** Whose rules of a busy file apply; this machine's by default. */
  platform?: NodeJS.Platform;
  /** Waits between attempts at a rename Windows refuses because the target is open elsewhere. */
  retryDelaysMs?: readonly number[];
}

/**
 * On Windows a rename over a file another program holds open (an editor, an antivirus scan, the
 * search indexer, OneDrive syncing) fails with EPERM, EBUSY or EACCES for as long as it holds
 * it, usually a fraction of a second. About 3 s in all before giving up.
 */
export const RENAME_RETRY_DELAYS_MS: readonly number[] = [50, 100, 200, 400, 800, 1500];
const BUSY_CODES = new Set(['EPERM', 'EBUSY', 'EACCES']);

/** The rename was refused on Windows every time: another program holds the file. */
export class FileInUseError extends Error {
  readonly code = 'EBUSY';
  readonly inUse = true;
}

/**
 * Replaces `target` with `data` so that any reader (or a crash) sees either the whole old file or
 * the whole new one: the data goes to a temp file in the same folder (a rename is only atomic
 * within one file system), is flushed to disk, then renamed over the target. On failure the temp
 * file is removed; one left by a killed process is removed by the next write to the same target.
 */
export async function atomicWriteFile(target: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = path.dirname(target);
  const name = path.basename(target);
  await removeStaleTemps(folder, name);
  const temp = path.join(folder, `${tempPrefix(name)}${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', options.mode ?? 0o666);
    // open() applies the umask; an overwritten file must keep exactly the mode it had.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    for (let written = 0; written < data.length;) {
      options.signal?.throwIfAborted();
      const { bytesWritten } = await handle.write(data, written, Math.min(WRITE_SLICE_BYTES, data.length - written));
      written += bytesWritten;
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    options.signal?.throwIfAborted();
    await renameRetrying(temp, target, options);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

async function renameRetrying(from: string, to: string, options: AtomicWriteOptions): Promise<void> {
  const renameOnce = options.rename ?? rename;
  const delays = (options.platform ?? process.platform) === 'win32' ? (options.retryDelaysMs ?? RENAME_RETRY_DELAYS_MS) : [];
  for (let attempt = 0; ; attempt++) {
    try {
      await renameOnce(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // On POSIX these codes mean real permissions, which waiting does not change.
      if (!BUSY_CODES.has(code) || delays.length === 0) throw error;
      const wait = delays[attempt];
      if (wait === undefined) throw new FileInUseError(`${to} is in use by another program (${code})`, { cause: error });
      options.signal?.throwIfAborted();
      await delay(wait, undefined, { signal: options.signal });
    }
  }
}

/** `.name.` — hidden, and tied to its target so stale ones can be found again. */
function tempPrefix(name: string): string {
  return `.${name.slice(0, MAX_NAME_PART)}.`;
}

/** Temp files for this target whose writing process no longer runs (it was killed mid-write). */
async function removeStaleTemps(folder: string, name: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch {
    return; // The folder may not exist yet; then there is nothing stale either.
  }
  const prefix = tempPrefix(name);
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith(TEMP_SUFFIX)) continue;
    const match = /^(\d+)\.[0-9a-f]+$/.exec(entry.slice(prefix.length, -TEMP_SUFFIX.length));
    if (!match || isRunning(Number(match[1]))) continue;
    await rm(path.join(folder, entry), { force: true }).catch(() => undefined);
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes the rename itself durable; not possible on every platform (Windows), where it is skipped. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Best effort: the data is already flushed and the rename done.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
