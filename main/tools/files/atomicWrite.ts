import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Written in slices so a cancel is noticed and a huge content is not one giant system call. */
const WRITE_SLICE_BYTES = 1024 * 1024;
/** Names stay under the usual 255-byte limit even for a long target name. */
const MAX_NAME_PART = 100;
const TEMP_SUFFIX = '.keel-tmp';

export interface AtomicWriteOptions {
  /** Permission bits to give the file (an overwritten file keeps its own); new files get the default. */
  mode?: number;
  signal?: AbortSignal;
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
    for (let written = 0; written < data.length; ) {
      options.signal?.throwIfAborted();
      const { bytesWritten } = await handle.write(data, written, Math.min(WRITE_SLICE_BYTES, data.length - written));
      written += bytesWritten;
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    options.signal?.throwIfAborted();
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
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
