import { randomBytes } from 'node:crypto';
import { copyFile, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { git, gitLine } from './gitCommand';
import { diffIndex, type TreeChange } from './treeDiff';

/** Who the snapshot commits say made them (the person's repository may have no user.name at all). */
const KEEL_IDENTITY = {
  GIT_AUTHOR_NAME: 'Keel',
  GIT_AUTHOR_EMAIL: 'keel@localhost',
  GIT_COMMITTER_NAME: 'Keel',
  GIT_COMMITTER_EMAIL: 'keel@localhost',
};

export interface SnapshotSource {
  /** The folder to snapshot (a workspace, or a helper's folder in its worktree). */
  folder: string;
  /** That work tree's own index: copied (never written) so unchanged files are not hashed again. */
  indexFile: string;
  /** A folder of Keel's where the temporary index lives for the moment of the snapshot. */
  scratch: string;
}

/**
 * The tree of the folder as it is now, tracked changes, deletions and untracked files that are not
 * ignored included, written as git objects. The person's index, HEAD, branches and stash are not
 * touched: `git add -A` runs into a temporary copy of the index, which is deleted afterwards.
 * Outside the folder (a workspace below the repository's top) the tree holds what the index holds.
 */
export function snapshotTree(source: SnapshotSource): Promise<string> {
  return withSnapshotIndex(source, (env) => gitLine(['write-tree'], { cwd: source.folder, env }));
}

/**
 * What changed in the folder against the commit `base`, as snapshotTree would see it, without
 * writing the tree: the snapshot's index compared with `base` (one git process fewer).
 */
export function snapshotChanges(source: SnapshotSource, base: string): Promise<TreeChange[]> {
  return withSnapshotIndex(source, (env) => diffIndex(source.folder, base, env));
}

/** `git add -A` into a copy of the folder's index, then `work` with that index; the copy is deleted after. */
async function withSnapshotIndex<T>(source: SnapshotSource, work: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const tempIndex = path.join(source.scratch, `index-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    try {
      await copyIndex(source.indexFile, tempIndex);
    } catch (error) {
      // A repository with no commits may have no index yet: start from an empty one.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const env = { GIT_INDEX_FILE: tempIndex };
    await git(['add', '-A', '--', '.'], { cwd: source.folder, env });
    return await work(env);
  } finally {
    await rm(tempIndex, { force: true });
    await rm(`${tempIndex}.lock`, { force: true });
  }
}

/** A commit of the tree (child of HEAD when there is one), made without touching any ref. */
export async function snapshotCommit(folder: string, tree: string, message: string): Promise<string> {
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: folder, okCodes: [1] });
  const parent = head.code === 0 ? ['-p', head.stdout.toString('utf8').trim()] : [];
  return gitLine(['commit-tree', '--no-gpg-sign', ...parent, '-m', message, tree], { cwd: folder, env: KEEL_IDENTITY });
}

/**
 * A copy of an index that git trusts exactly as much as the original. git re-reads a file whose
 * stat matches its entry only when the file is "racy" (changed in the same moment the index was
 * written), which it tells by the index file's own mtime: a copy with a fresh mtime would make a
 * same-size edit of a moment ago look unchanged. So the copy keeps the original's mtime, a
 * millisecond earlier still (an earlier index only makes more entries re-read).
 */
async function copyIndex(from: string, to: string): Promise<void> {
  const original = await stat(from);
  await copyFile(from, to);
  const mtime = (original.mtimeMs - 1) / 1000;
  await utimes(to, mtime, mtime);
}
