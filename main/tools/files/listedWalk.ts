import type { Dirent } from 'node:fs';
import { admittedKind, hiddenTest, openFolderSync, startLayersSync, type OpenedFolder, type WalkedFile, type WalkResult } from './walk';

/** An entered folder with its entries by name; null when the walk would not enter it. */
type Known = (OpenedFolder & { byName: Map<string, Dirent> }) | null;

/**
 * The files of `listed` (paths relative to `start`, forward slashes, in any order) that
 * walkFilesSync(root, start) would yield, in the order it would yield them, with the same rules:
 * only the folders on the way to a listed path are read. A search that already knows which files
 * can match (ripgrep listed them) gets the walk's answer for those without walking the rest.
 */
export function* walkListedSync(
  root: string,
  start: string,
  listed: readonly string[],
  result: WalkResult = { startIgnored: false },
  hidden: readonly string[] = [],
): Generator<WalkedFile> {
  const isHidden = hiddenTest(hidden);
  const { startRelative, layers } = startLayersSync(root, start, result);
  const prefixLength = startRelative === '' ? 0 : startRelative.length + 1;
  const known = new Map<string, Known>([['', withNames(openFolderSync(start, startRelative, layers))]]);

  for (const parts of inWalkOrder(listed)) {
    let folder = known.get('') as Known;
    let key = '';
    for (let depth = 0; depth < parts.length - 1 && folder !== null; depth++) {
      key = depth === 0 ? (parts[0] as string) : `${key}/${parts[depth] as string}`;
      let next = known.get(key);
      if (next === undefined) {
        next = enterChild(folder, parts[depth] as string, root, isHidden);
        known.set(key, next);
      }
      folder = next;
    }
    if (folder === null) continue;
    const name = parts[parts.length - 1] as string;
    const entry = folder.byName.get(name);
    const { absolute, relative } = entryPaths(folder, name);
    if (!entry || admittedKind(folder, entry, absolute, relative, root, isHidden) !== 'file') continue;
    yield { absolute, relative, fromStart: relative.slice(prefixLength) };
  }
}

function enterChild(parent: NonNullable<Known>, name: string, root: string, isHidden: ((absolute: string) => boolean) | null): Known {
  const entry = parent.byName.get(name);
  const { absolute, relative } = entryPaths(parent, name);
  if (!entry || admittedKind(parent, entry, absolute, relative, root, isHidden) !== 'folder') return null;
  return withNames(openFolderSync(absolute, relative, parent.active));
}

/** An entry's real path and workspace-relative path, spelled as walkFilesSync spells them. */
function entryPaths(folder: OpenedFolder, name: string): { absolute: string; relative: string } {
  return { absolute: folder.prefix + name, relative: folder.relative === '' ? name : `${folder.relative}/${name}` };
}

function withNames(folder: OpenedFolder | null): Known {
  return folder && { ...folder, byName: new Map(folder.entries.map((entry) => [entry.name, entry])) };
}

/**
 * The paths split into names, without repeats, in walkFilesSync's order: depth first with each
 * folder's entries in name order. That is plain string order once each `/` is a NUL, which sorts
 * before any character of a name (with `/` itself, `a.txt` would come before `a/b`).
 */
function inWalkOrder(listed: readonly string[]): string[][] {
  const keys = [...new Set(listed)].map((relative) => relative.replaceAll('/', '\0'));
  keys.sort();
  return keys.map((key) => key.split('\0')).filter((parts) => parts.every((name) => name !== '' && name !== '.' && name !== '..'));
}
