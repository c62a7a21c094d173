import { lstat, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { git, HelperGitError } from './gitCommand';
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

/** The attributes that make a checked-out file differ from its blob (line endings, filters, encodings). */
const CONVERTING = ['text', 'eol', 'crlf', 'filter', 'ident', 'working-tree-encoding'];

/**
 * Many tree entries as readTreeState reads each, in three git processes at once whatever their
 * number (a process per file costs tens of milliseconds on a busy machine): the blobs as stored,
 * in one `git cat-file --batch`, and which of them a checkout would convert (`check-attr`,
 * `core.autocrlf`); only those are read again one by one through the filters, as are symbolic
 * links. `relative` is the path from `cwd`, `prefix` what leads from the work tree's top to `cwd`.
 */
export async function readTreeStates(cwd: string, prefix: string, items: readonly { relative: string; entry: TreeEntry }[]): Promise<FileState[]> {
  const states: FileState[] = new Array<FileState>(items.length).fill(ABSENT);
  const files = items.flatMap((item, i) => (item.entry !== null && item.entry.mode !== '120000' ? [i] : []));
  const alone = items.flatMap((item, i) => (item.entry?.mode === '120000' ? [i] : []));
  const [blobs, converted] = await Promise.all([
    readBlobs(
      cwd,
      files.map((i) => items[i]!.entry!.oid),
    ),
    convertedPaths(
      cwd,
      files.map((i) => items[i]!.relative),
    ),
  ]);
  files.forEach((i, k) => {
    if (converted.has(items[i]!.relative)) alone.push(i);
    else states[i] = { kind: 'file', bytes: blobs[k]!, executable: items[i]!.entry!.mode === '100755' };
  });
  await Promise.all(
    alone.map(async (i) => {
      states[i] = await readTreeState(cwd, `${prefix}${items[i]!.relative}`, items[i]!.entry);
    }),
  );
  return states;
}

/** The blobs' bytes as stored, in order, from one `git cat-file --batch`. */
async function readBlobs(cwd: string, oids: readonly string[]): Promise<Buffer[]> {
  if (oids.length === 0) return [];
  const out = (await git(['cat-file', '--batch'], { cwd, input: oids.map((oid) => `${oid}\n`).join('') })).stdout;
  // Per object: `<oid> blob <size>\n<bytes>\n` (or `<oid> missing\n`, which a base never is).
  const blobs: Buffer[] = [];
  let at = 0;
  for (const oid of oids) {
    const lineEnd = out.indexOf(0x0a, at);
    const header = lineEnd < 0 ? [] : out.subarray(at, lineEnd).toString('utf8').split(' ');
    if (header[1] !== 'blob') throw new HelperGitError('git_failed', `git cat-file --batch: no blob ${oid}`);
    const size = Number(header[2]);
    blobs.push(Buffer.from(out.subarray(lineEnd + 1, lineEnd + 1 + size)));
    at = lineEnd + 1 + size + 1;
  }
  return blobs;
}

/** The paths whose checkout is not their blob: every one under `core.autocrlf`, else those with a converting attribute. */
async function convertedPaths(cwd: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const [autocrlf, attributes] = await Promise.all([
    git(['config', '--get', '--type=bool', 'core.autocrlf'], { cwd, okCodes: [1] }).then(
      (result) => result.stdout.toString('utf8').trim() === 'true',
      // A value that is not a boolean ("input") converts nothing on checkout.
      () => false,
    ),
    git(['check-attr', '-z', '--stdin', ...CONVERTING], { cwd, input: paths.map((p) => `${p}\0`).join('') }),
  ]);
  if (autocrlf) return new Set(paths);
  // `<path>\0<attribute>\0<value>\0` per path and attribute.
  const fields = attributes.stdout.toString('utf8').split('\0');
  const converted = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) if (fields[i + 2] !== 'unspecified') converted.add(fields[i]!);
  return converted;
}
