import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isInside, toRelative } from './confine';
import { isIgnored, loadIgnoreFileSync, type IgnoreLayer } from './gitignore';

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
 * keeps the walk inside the workspace and free of cycles. Synchronous, for the search workers
 * (a fraction of the cost of promises per entry; a worker has nothing else to do meanwhile), which
 * serve search_text, list_files and the @-mention index. `result.startIgnored` is set before the
 * first file is yielded.
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
