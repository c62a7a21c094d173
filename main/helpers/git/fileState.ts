import { lstat, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { git } from './gitCommand';
import type { TreeEntry } from './treeDiff';

/**
 * A path's content as a merge sees it: absent, a file (bytes as on disk, with its executable bit),
 * a symbolic link (its target), or something a helper's change cannot be merged over (a folder
 * where a file should be, a file where a folder should be).
 */
export type FileState =
  { kind: 'absent' } | { kind: 'file'; bytes: Buffer; executable: boolean } | { kind: 'link'; target: string } | { kind: 'blocked'; why: string };

export const ABSENT: FileState = { kind: 'absent' };

export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.executable === b.executable && a.bytes.equals(b.bytes);
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return a.kind === b.kind && a.kind === 'absent';
}

/** Only the bytes, for a text merge: the executable bit is merged on its own. */
export function sameBytes(a: FileState, b: FileState): boolean {
  return a.kind === 'file' && b.kind === 'file' && a.bytes.equals(b.bytes);
}

/** git's own test: a NUL in the first 8000 bytes makes a file binary. */
export function isBinary(state: FileState): boolean {
  return state.kind === 'file' && state.bytes.subarray(0, 8000).includes(0);
}

/**
 * A path of a folder as it is on disk now. A parent that is a file or a symbolic link makes the
 * path `blocked`: writing through a link could land outside the folder.
 */
export async function readDiskState(folder: string, relative: string): Promise<FileState> {
  const parts = relative.split('/');
  for (let i = 1; i < parts.length; i++) {
    const parent = path.join(folder, ...parts.slice(0, i));
    try {
      const stat = await lstat(parent);
      if (!stat.isDirectory()) return { kind: 'blocked', why: `${parts.slice(0, i).join('/')} is not a folder` };
    } catch {
      return ABSENT;
    }
  }
  const absolute = path.join(folder, ...parts);
  let stat;
  try {
    stat = await lstat(absolute);
  } catch {
    return ABSENT;
  }
  if (stat.isSymbolicLink()) return { kind: 'link', target: await readlink(absolute) };
  if (stat.isFile()) return { kind: 'file', bytes: await readFile(absolute), executable: (stat.mode & 0o111) !== 0 };
  return { kind: 'blocked', why: `${relative} is a folder` };
}

/**
 * A tree entry as it would be checked out (smudge filters and line endings applied), so that it
 * compares with files on disk byte for byte. `cwd` is the work tree the path is relative to.
 */
export async function readTreeState(cwd: string, relative: string, entry: TreeEntry): Promise<FileState> {
  if (entry === null) return ABSENT;
  if (entry.mode === '120000') {
    const target = await git(['cat-file', 'blob', entry.oid], { cwd });
    return { kind: 'link', target: target.stdout.toString('utf8') };
  }
  const blob = await git(['cat-file', '--filters', `--path=${relative}`, entry.oid], { cwd });
  return { kind: 'file', bytes: blob.stdout, executable: entry.mode === '100755' };
}
