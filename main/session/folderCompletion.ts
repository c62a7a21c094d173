import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';

const MAX_COMPLETIONS = 50;

/**
 * Folders that complete what the person has typed so far ("~/pro" → "~/projects/"), for the
 * web host's path field. Hidden folders appear only once a "." is typed.
 */
export async function completeFolderPath(partial: string): Promise<string[]> {
  const home = homedir();
  const expanded = partial === '~' || partial.startsWith(`~${sep}`) ? home + partial.slice(1) : partial;
  if (!expanded.startsWith(sep)) return [];
  const endsWithSep = expanded.endsWith(sep);
  const folder = endsWithSep ? expanded : dirname(expanded);
  const prefix = endsWithSep ? '' : basename(expanded);
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const candidates = entries.filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith('.') || !entry.name.startsWith('.')));
  // A link to a folder is a folder to the person (as in a shell's completion); a broken link is not.
  const folders = await Promise.all(candidates.map(async (entry) => entry.isDirectory() || (entry.isSymbolicLink() && (await isFolder(join(folder, entry.name))))));
  return candidates
    .filter((_, i) => folders[i])
    .map((entry) => join(folder, entry.name) + sep)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, MAX_COMPLETIONS);
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
