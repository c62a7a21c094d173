import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath from 'node:path';

const MAX_COMPLETIONS = 50;

export interface CompletionPlatform {
  /** The platform's path rules: `path.win32` completes `C:\Users\…`, with `\` as well as `/`. */
  path?: nodePath.PlatformPath;
  home?: string;
}

/**
 * Where to look for what the person has typed so far: the folder to list and the start of the
 * name to complete, or undefined when the text is not an absolute path (nor `~`-relative).
 * Windows: `C:\pro`, `c:/pro`, `C:` (the drive's root); a UNC path (`\\host\share`) is never
 * listed, as that would connect to the host.
 */
export function completionTarget(partial: string, platform: CompletionPlatform = {}): { folder: string; prefix: string } | undefined {
  const p = platform.path ?? nodePath;
  const home = platform.home ?? homedir();
  const windows = p.sep === '\\';
  const tilde = partial === '~' || partial.startsWith('~/') || (windows && partial.startsWith('~\\'));
  let expanded = tilde ? home + partial.slice(1) : partial;
  if (windows) {
    if (/^[\\/]{2}/.test(expanded)) return undefined;
    if (/^[a-zA-Z]:$/.test(expanded)) expanded += p.sep;
    // Only a drive-rooted path: `\x` is relative to whichever drive is current.
    if (!/^[a-zA-Z]:[\\/]/.test(expanded)) return undefined;
  } else if (!expanded.startsWith(p.sep)) {
    return undefined;
  }
  const endsWithSep = windows ? /[\\/]$/.test(expanded) : expanded.endsWith(p.sep);
  return endsWithSep ? { folder: expanded, prefix: '' } : { folder: p.dirname(expanded), prefix: p.basename(expanded) };
}

/**
 * Folders that complete what the person has typed so far ("~/pro" → "~/projects/"), for the
 * web host's path field. Hidden folders appear only once a "." is typed.
 */
export async function completeFolderPath(partial: string, platform: CompletionPlatform = {}): Promise<string[]> {
  const p = platform.path ?? nodePath;
  const target = completionTarget(partial, platform);
  if (!target) return [];
  const { folder, prefix } = target;
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const candidates = entries.filter((entry) => entry.name.startsWith(prefix) && (prefix.startsWith('.') || !entry.name.startsWith('.')));
  // A link to a folder is a folder to the person (as in a shell's completion); a broken link is not.
  const folders = await Promise.all(
    candidates.map(async (entry) => entry.isDirectory() || (entry.isSymbolicLink() && (await isFolder(p.join(folder, entry.name))))),
  );
  return candidates
    .filter((_, i) => folders[i])
    .map((entry) => p.join(folder, entry.name) + p.sep)
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
