import { chmod, lstat, mkdir, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { withFileWriteLock } from '../../platform/fileWriteLock';
import { readDiskState, sameState, type FileState } from './fileState';

export interface PlannedWrite {
  /** Relative to the folder, forward slashes. */
  path: string;
  /** What the folder holds there now (restored if a later write fails). */
  before: FileState;
  after: FileState;
}

/** A file of the folder is no longer what the merge was planned against: nothing was written. */
export class FolderMovedError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed in the folder while the merge was planned`);
    this.name = 'FolderMovedError';
  }
}

/**
 * Writes every planned state into the folder, or none: when one write fails, those already done
 * are put back as they were and the error is thrown. Each file is written only while it is still
 * what the plan read (`before`), checked and written under its file lock, so a write of an agent
 * (or of the person) made since is never overwritten unseen: FolderMovedError, and the caller plans
 * again. Files keep their permissions; only the executable bit follows the merge. Folders a
 * deletion leaves empty are removed, as git does.
 */
export async function writeStates(folder: string, writes: readonly PlannedWrite[]): Promise<void> {
  const done: PlannedWrite[] = [];
  try {
    for (const write of writes) {
      await withFileWriteLock(absolutePath(folder, write.path), async () => {
        if (!isStill(await readDiskState(folder, write.path), write.before)) throw new FolderMovedError(write.path);
        await writeState(folder, write.path, write.before, write.after);
      });
      done.push(write);
    }
  } catch (error) {
    for (const write of done.reverse()) {
      try {
        // Put back only what is still the merge's: a write made since stays.
        await withFileWriteLock(absolutePath(folder, write.path), async () => {
          if (isStill(await readDiskState(folder, write.path), write.after)) await writeState(folder, write.path, write.after, write.before);
        });
      } catch {
        // Best effort: the first error is the one to report.
      }
    }
    throw error;
  }
}

function isStill(now: FileState, planned: FileState): boolean {
  return sameState(now, planned) || (now.kind === 'blocked' && planned.kind === 'blocked');
}

function absolutePath(folder: string, relative: string): string {
  return path.join(folder, ...relative.split('/'));
}

async function writeState(folder: string, relative: string, before: FileState, after: FileState): Promise<void> {
  const absolute = absolutePath(folder, relative);
  if (after.kind === 'blocked') throw new Error(`cannot write ${relative}: ${after.why}`);
  if (after.kind === 'absent') {
    if (before.kind !== 'absent') await unlink(absolute);
    await removeEmptyParents(folder, absolute);
    return;
  }
  await mkdir(path.dirname(absolute), { recursive: true });
  if (after.kind === 'link') {
    if (before.kind !== 'absent') await unlink(absolute);
    await symlink(after.target, absolute);
    return;
  }
  if (before.kind === 'link') await unlink(absolute);
  if (before.kind !== 'file') {
    // A new file: the umask decides its permissions, as for any file the person creates.
    await writeFile(absolute, after.bytes, { mode: after.executable ? 0o777 : 0o666 });
    return;
  }
  // Written in place, so the file keeps its owner, permissions and hard links.
  await writeFile(absolute, after.bytes);
  if (before.executable !== after.executable) {
    const mode = (await lstat(absolute)).mode & 0o7777;
    // Executable for whoever may read it, like git's checkout of a 100755 file.
    await chmod(absolute, after.executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111);
  }
}

async function removeEmptyParents(folder: string, absolute: string): Promise<void> {
  for (let dir = path.dirname(absolute); dir.startsWith(folder + path.sep); dir = path.dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
  }
}
