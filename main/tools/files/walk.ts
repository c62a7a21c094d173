import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, toRelative } from './confine';
import { isIgnored, loadGitignore, loadIgnoreFile, loadIgnoreFileSync, type IgnoreLayer } from './gitignore';

/** Never worth listing or searching, ignored or not: git's own data and installed packages. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

export interface WalkedFile {
  absolute: string;
  /** Workspace-relative, forward slashes. */
  relative: string;
  /** Relative to the folder the walk started in, for matching globs given for that folder. */
  fromStart: string;
}

export interface WalkResult {
  /** The start folder is ignored by a .gitignore above it, and was walked because it was asked for. */
  startIgnored: boolean;
}

/**
 * The regular files under `start` (a real folder inside the real workspace `root`), depth first
 * in name order, skipping what .gitignore files (root and nested, plus .git/info/exclude) ignore.
 * Symbolic links to files inside the workspace are listed; links to folders are not followed, which
 * keeps the walk inside the workspace and free of cycles. `visit` returns false to stop early.
 */
export async function walkFiles(
  root: string,
  start: string,
  visit: (file: WalkedFile) => boolean | void | Promise<boolean | void>,
  signal?: AbortSignal,
): Promise<WalkResult> {
  const startRelative = start === root ? '' : toRelative(root, start);
  let layers = await ancestorLayers(root, startRelative);
  const startIgnored = startRelative !== '' && isIgnored(layers, startRelative, true);
  // Asked for explicitly (as `rg pattern ignored-dir/` does): the rules that would hide it all are set aside.
  if (startIgnored) layers = [];

  const walkFolder = async (folder: string, relative: string, inherited: readonly IgnoreLayer[]): Promise<boolean> => {
    signal?.throwIfAborted();
    const own = await loadGitignore(folder, relative);
    const active = own ? [...inherited, own] : inherited;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return true; // An unreadable folder is skipped, as git and ripgrep do.
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const absolute = path.join(folder, entry.name);
      const entryRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const kind = await kindOf(entry, absolute, root);
      if (kind === 'other' || isIgnored(active, entryRelative, kind === 'folder')) continue;
      if (kind === 'folder') {
        if (!(await walkFolder(absolute, entryRelative, active))) return false;
        continue;
      }
      const fromStart = startRelative === '' ? entryRelative : entryRelative.slice(startRelative.length + 1);
      if ((await visit({ absolute, relative: entryRelative, fromStart })) === false) return false;
    }
    return true;
  };

  await walkFolder(start, startRelative, layers);
  return { startIgnored };
}

async function kindOf(entry: Dirent, absolute: string, root: string): Promise<'file' | 'folder' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    const [info, real] = await Promise.all([stat(absolute), realpath(absolute)]);
    return info.isFile() && isInside(root, real) ? 'file' : 'other';
  } catch {
    return 'other'; // Dangling link.
  }
}

/** The ignore rules that apply from above the start folder: root .git/info/exclude, then each .gitignore on the way down. */
async function ancestorLayers(root: string, startRelative: string): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  const exclude = await loadIgnoreFile(path.join(root, '.git', 'info', 'exclude'), '');
  if (exclude) layers.push(exclude);
  const parts = startRelative === '' ? [] : startRelative.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const relative = parts.slice(0, depth).join('/');
    const layer = await loadGitignore(path.join(root, ...parts.slice(0, depth)), relative);
    if (layer) layers.push(layer);
  }
  return layers;
}

/**
 * walkFiles for a search worker: the same files in the same order under the same rules, read with
 * synchronous calls (a fraction of the cost of promises per entry). `result.startIgnored` is set
 * before the first file is yielded.
 */
export function* walkFilesSync(root: string, start: string, result: WalkResult = { startIgnored: false }): Generator<WalkedFile> {
  const startRelative = start === root ? '' : toRelative(root, start);
  let layers = ancestorLayersSync(root, startRelative);
  result.startIgnored = startRelative !== '' && isIgnored(layers, startRelative, true);
  if (result.startIgnored) layers = [];
  const prefixLength = startRelative === '' ? 0 : startRelative.length + 1;

  function* walkFolder(folder: string, relative: string, inherited: readonly IgnoreLayer[]): Generator<WalkedFile> {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // An unreadable folder is skipped, as git and ripgrep do.
    }
    // Only a folder that lists a .gitignore is asked for one: most have none.
    const own = entries.some((entry) => entry.name === '.gitignore') ? loadIgnoreFileSync(path.join(folder, '.gitignore'), relative) : null;
    const active = own ? [...inherited, own] : inherited;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      // folder is a real path, so joining needs no normalising: the cost of path.join on every entry is not paid.
      const absolute = folder.endsWith(path.sep) ? folder + entry.name : folder + path.sep + entry.name;
      const entryRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const kind = kindOfSync(entry, absolute, root);
      if (kind === 'other' || (active.length > 0 && isIgnored(active, entryRelative, kind === 'folder'))) continue;
      if (kind === 'folder') yield* walkFolder(absolute, entryRelative, active);
      else yield { absolute, relative: entryRelative, fromStart: entryRelative.slice(prefixLength) };
    }
  }

  yield* walkFolder(start, startRelative, layers);
}

function kindOfSync(entry: Dirent, absolute: string, root: string): 'file' | 'folder' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    return statSync(absolute).isFile() && isInside(root, realpathSync(absolute)) ? 'file' : 'other';
  } catch {
    return 'other'; // Dangling link.
  }
}

function ancestorLayersSync(root: string, startRelative: string): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  const exclude = loadIgnoreFileSync(path.join(root, '.git', 'info', 'exclude'), '');
  if (exclude) layers.push(exclude);
  const parts = startRelative === '' ? [] : startRelative.split('/');
  for (let depth = 0; depth < parts.length; depth++) {
    const layer = loadIgnoreFileSync(path.join(root, ...parts.slice(0, depth), '.gitignore'), parts.slice(0, depth).join('/'));
    if (layer) layers.push(layer);
  }
  return layers;
}
