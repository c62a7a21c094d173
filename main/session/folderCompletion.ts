import { readdir } from 'node:fs/promises';
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
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix) && (prefix.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => join(folder, entry.name) + sep)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, MAX_COMPLETIONS);
}
