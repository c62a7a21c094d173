import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isBinary, sameBytes, sameState, type FileState } from './fileState';
import { git } from './gitCommand';

/** Why one file could not be merged cleanly. */
export type ConflictReason = 'overlap' | 'binary' | 'deleted_and_changed' | 'kind' | 'blocked';

/**
 * What a three-way merge makes of one path:
 * - `keep`: the folder already holds the result (the helper's change is in it, or undone there);
 * - `write`: the result, to be written over the folder's path (absent: delete it);
 * - `conflict`: the two sides overlap; `markers` is the text with conflict markers when there is
 *   one to write (a text file changed on both sides, or deleted on one side: the changed side).
 */
export type Resolution = { kind: 'keep' } | { kind: 'write'; state: FileState } | { kind: 'conflict'; reason: ConflictReason; markers: FileState | null };

export interface MergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

/** Three-way merge of one path: `ours` the folder now, `theirs` the helper's, against `base`. */
export async function resolveFile(base: FileState, ours: FileState, theirs: FileState, options: { scratch: string; labels: MergeLabels }): Promise<Resolution> {
  if (ours.kind === 'blocked' || theirs.kind === 'blocked') return { kind: 'conflict', reason: 'blocked', markers: null };
  if (sameState(ours, theirs)) return { kind: 'keep' };
  if (sameState(ours, base)) return { kind: 'write', state: theirs };
  if (sameState(theirs, base)) return { kind: 'keep' };
  // Both sides changed the path, differently.
  if (ours.kind === 'absent' || theirs.kind === 'absent') {
    return { kind: 'conflict', reason: 'deleted_and_changed', markers: ours.kind === 'absent' ? theirs : ours };
  }
  if (ours.kind !== 'file' || theirs.kind !== 'file' || (base.kind !== 'file' && base.kind !== 'absent')) {
    return { kind: 'conflict', reason: 'kind', markers: null };
  }
  const executable = mergeExecutable(base, ours, theirs);
  // Only the executable bit differs on one side: the bytes agree.
  if (sameBytes(ours, theirs)) return { kind: 'write', state: { kind: 'file', bytes: ours.bytes, executable } };
  if (isBinary(ours) || isBinary(theirs) || isBinary(base)) return { kind: 'conflict', reason: 'binary', markers: null };
  const baseBytes = base.kind === 'file' ? base.bytes : Buffer.alloc(0);
  const merged = await mergeText(ours.bytes, baseBytes, theirs.bytes, options);
  const state: FileState = { kind: 'file', bytes: merged.bytes, executable };
  return merged.conflicts === 0 ? { kind: 'write', state } : { kind: 'conflict', reason: 'overlap', markers: state };
}

/** The executable bit as git merges it: the side that changed it wins. */
function mergeExecutable(base: FileState, ours: FileState & { kind: 'file' }, theirs: FileState & { kind: 'file' }): boolean {
  const before = base.kind === 'file' ? base.executable : false;
  return ours.executable !== before ? ours.executable : theirs.executable;
}

/** `git merge-file -p` on temporary copies; the exit code is the number of conflicts. */
async function mergeText(
  ours: Buffer,
  base: Buffer,
  theirs: Buffer,
  options: { scratch: string; labels: MergeLabels },
): Promise<{ bytes: Buffer; conflicts: number }> {
  const dir = path.join(options.scratch, `merge-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  try {
    const files = { ours: path.join(dir, 'ours'), base: path.join(dir, 'base'), theirs: path.join(dir, 'theirs') };
    await Promise.all([writeFile(files.ours, ours), writeFile(files.base, base), writeFile(files.theirs, theirs)]);
    const { labels } = options;
    const result = await git(['merge-file', '-p', '-L', labels.ours, '-L', labels.base, '-L', labels.theirs, files.ours, files.base, files.theirs], {
      cwd: dir,
      // 1..127: that many conflicts; git's own failure (255) still throws.
      okCodes: Array.from({ length: 127 }, (_, i) => i + 1),
    });
    return { bytes: result.stdout, conflicts: result.code };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
