import { ABSENT, readDiskState, readTreeStates, type FileState } from './fileState';
import { resolveFile, type MergeLabels, type Resolution } from './resolveFile';
import type { TreeChange } from './treeDiff';
import type { PlannedWrite } from './writeStates';

export type MergeStrategy = 'three_way' | 'theirs' | 'markers';

/** One file a helper changed, its three versions and how it merges. */
export interface PlannedFile {
  path: string;
  base: FileState;
  ours: FileState;
  theirs: FileState;
  resolution: Resolution;
}

/** How many files are read and merged at once (a text merge of both sides' edits costs a git process). */
const PARALLEL = 8;

/**
 * Reads each changed file's three versions (base from git, as checked out; ours from the folder;
 * theirs from the helper's folder, as it wrote it) and merges each one, in path order.
 */
export async function planFiles(options: {
  workspace: string;
  helperFolder: string;
  /** The workspace's path inside the repository ('' or 'sub/dir/'): attributes are looked up by it. */
  prefix: string;
  changes: readonly TreeChange[];
  scratch: string;
  labels: MergeLabels;
}): Promise<PlannedFile[]> {
  // Every base at once (see readTreeStates); ours and theirs are files on disk.
  const bases = await readTreeStates(
    options.helperFolder,
    options.prefix,
    options.changes.map((change) => ({ relative: change.path, entry: change.before })),
  );
  const planOne = async (change: TreeChange, base: FileState): Promise<PlannedFile> => {
    const [ours, theirs] = await Promise.all([
      readDiskState(options.workspace, change.path),
      change.after === null ? Promise.resolve(ABSENT) : readDiskState(options.helperFolder, change.path),
    ]);
    const resolution = await resolveFile(base, ours, theirs, { scratch: options.scratch, labels: options.labels });
    return { path: change.path, base, ours, theirs, resolution };
  };
  const files: PlannedFile[] = [];
  for (let i = 0; i < options.changes.length; i += PARALLEL) {
    files.push(...(await Promise.all(options.changes.slice(i, i + PARALLEL).map((change, k) => planOne(change, bases[i + k]!)))));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * What a strategy writes: the clean results, and for the conflicting files the helper's version
 * ('theirs'), the text with markers ('markers') or nothing ('three_way'). `unwritable`: conflicts
 * the strategy cannot write (a binary file with markers, a folder in the way).
 */
export function chooseWrites(files: readonly PlannedFile[], strategy: MergeStrategy): { writes: PlannedWrite[]; conflicted: string[]; unwritable: string[] } {
  const writes: PlannedWrite[] = [];
  const conflicted: string[] = [];
  const unwritable: string[] = [];
  for (const file of files) {
    const { resolution } = file;
    if (resolution.kind === 'keep') continue;
    if (resolution.kind === 'write') {
      writes.push({ path: file.path, before: file.ours, after: resolution.state });
      continue;
    }
    conflicted.push(file.path);
    const after = strategy === 'theirs' ? file.theirs : strategy === 'markers' ? resolution.markers : null;
    if (after === null || after.kind === 'blocked' || file.ours.kind === 'blocked') unwritable.push(file.path);
    else writes.push({ path: file.path, before: file.ours, after });
  }
  return { writes, conflicted, unwritable };
}
