import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isInside, toRelative } from './confine';
import { isSecretPath } from '../../sandbox/secretPaths';
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
 * first file is yielded. `hidden` (real absolute paths: the secrets inside the workspace) are passed
 * over, and so is a link that leads into one.
 */
export function* walkFilesSync(
  root: string,
  start: string,
  result: WalkResult = { startIgnored: false },
  hidden: readonly string[] = [],
): Generator<WalkedFile> {
  const isHidden = hiddenTest(hidden);
  const { startRelative, layers } = startLayersSync(root, start, result);
  const prefixLength = startRelative === '' ? 0 : startRelative.length + 1;

  // One generator with a stack of open folders: a file yielded from a nested generator passed
  // through a frame per level (yield*), a cost paid on every file of a search's walk.
  const stack: Folder[] = [];
  const enter = (folder: string, relative: string, inherited: readonly IgnoreLayer[]): void => {
    const opened = openFolderSync(folder, relative, inherited);
    // Spelled out, not spread: every folder on the stack keeps one shape, which the walk's loop is fastest on.
    if (opened) stack.push({ prefix: opened.prefix, relative: opened.relative, active: opened.active, entries: opened.entries, next: 0 });
  };

  enter(start, startRelative, layers);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Folder;
    if (top.next === top.entries.length) {
      stack.pop();
      continue;
    }
    const entry = top.entries[top.next++] as Dirent;
    const absolute = top.prefix + entry.name;
    const entryRelative = top.relative === '' ? entry.name : `${top.relative}/${entry.name}`;
    const kind = admittedKind(top, entry, absolute, entryRelative, root, isHidden);
    if (kind === 'folder') enter(absolute, entryRelative, top.active);
    else if (kind === 'file') yield { absolute, relative: entryRelative, fromStart: entryRelative.slice(prefixLength) };
  }
}

/**
 * Whether the walk takes one entry of a folder it has entered (`absolute` and `relative` are the
 * entry's), and as what: the rules of walkFilesSync, and of walkListedSync, which must agree with
 * it file for file. Null for an entry passed over.
 */
export function admittedKind(
  folder: Pick<OpenedFolder, 'active'>,
  entry: Dirent,
  absolute: string,
  relative: string,
  root: string,
  isHidden: ((absolute: string) => boolean) | null,
): 'file' | 'folder' | null {
  if (ALWAYS_SKIPPED.has(entry.name) || isHidden?.(absolute)) return null;
  const kind = kindOfSync(entry, absolute, root, isHidden);
  if (kind === 'other' || (folder.active.length > 0 && isIgnored(folder.active, relative, kind === 'folder'))) return null;
  return kind;
}

/** A folder being walked: its entries in name order and the next one to look at. */
interface Folder extends OpenedFolder {
  next: number;
}

/** A folder's entries, in name order, and the ignore rules that apply to them. */
export interface OpenedFolder {
  /** The folder's real path with a separator at its end. */
  prefix: string;
  relative: string;
  active: readonly IgnoreLayer[];
  entries: Dirent[];
}

/** Reads a folder the walk enters; null when it cannot be read (skipped, as git and ripgrep do). */
export function openFolderSync(folder: string, relative: string, inherited: readonly IgnoreLayer[]): OpenedFolder | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return null;
  }
  // Only a folder that lists a .gitignore is asked for one: most have none.
  const own = entries.some((entry) => entry.name === '.gitignore') ? loadIgnoreFileSync(path.join(folder, '.gitignore'), relative) : null;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // folder is a real path, so joining needs no normalising: the cost of path.join on every entry is not paid.
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  return { prefix, relative, active: own ? [...inherited, own] : inherited, entries };
}

/** The start folder's workspace-relative path and the ignore rules from above it; sets `result.startIgnored`. */
export function startLayersSync(root: string, start: string, result: WalkResult): { startRelative: string; layers: IgnoreLayer[] } {
  const startRelative = start === root ? '' : toRelative(root, start);
  const layers = ancestorLayersSync(root, startRelative);
  result.startIgnored = startRelative !== '' && isIgnored(layers, startRelative, true);
  return { startRelative, layers: result.startIgnored ? [] : layers };
}

/** Null when nothing is hidden: the walk of a usual workspace pays nothing for the check. */
export function hiddenTest(hidden: readonly string[]): ((absolute: string) => boolean) | null {
  return hidden.length === 0 ? null : (absolute) => isSecretPath(absolute, hidden);
}

function kindOfSync(entry: Dirent, absolute: string, root: string, isHidden: ((absolute: string) => boolean) | null): 'file' | 'folder' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    if (!statSync(absolute).isFile()) return 'other';
    const real = realpathSync(absolute);
    return isInside(root, real) && !isHidden?.(real) ? 'file' : 'other';
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
