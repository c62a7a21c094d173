import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The path rules of one platform: `path.win32` on Windows, `path.posix` elsewhere. */
export function pathModule(platform: NodeJS.Platform = process.platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * Whether two spellings of a path that differ only in letter case name one file: on Windows
 * (NTFS) and macOS (APFS and HFS+ by default) they do. A case-sensitive APFS volume is rare
 * enough that treating it as insensitive only risks calling two sibling folders that differ by
 * case "inside" each other's parent, which is still inside the workspace.
 */
export function ignoresCase(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/**
 * The path of `child` relative to `parent`, with forward slashes ('' when they are the same),
 * or undefined when `child` is not inside `parent`. Compared segment by segment, ignoring case
 * where the platform does, so `c:\Proj\src` is inside `C:\proj` and `/Users/a/Proj/x` inside
 * `/Users/a/proj` on macOS. Both paths should be absolute.
 */
export function relativeInside(parent: string, child: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const p = pathModule(platform);
  const fold = ignoresCase(platform) ? (s: string) => s.toLowerCase() : (s: string) => s;
  const parentParts = segments(p.resolve(parent), p.sep);
  const childParts = segments(p.resolve(child), p.sep);
  if (childParts.length < parentParts.length) return undefined;
  for (let i = 0; i < parentParts.length; i++) {
    if (fold(parentParts[i] ?? '') !== fold(childParts[i] ?? '')) return undefined;
  }
  return childParts.slice(parentParts.length).join('/');
}

/** Whether `child` is `parent` or lies inside it (see relativeInside). */
export function isInside(parent: string, child: string, platform: NodeJS.Platform = process.platform): boolean {
  return relativeInside(parent, child, platform) !== undefined;
}

/** Whether two absolute paths name the same place, by the platform's rules of case. */
export function samePath(a: string, b: string, platform: NodeJS.Platform = process.platform): boolean {
  return relativeInside(a, b, platform) === '';
}

function segments(resolved: string, sep: string): string[] {
  const parts = resolved.split(sep);
  // A root (`/`, `C:\`) ends in a separator: its empty last segment is not a name.
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  return parts;
}

/**
 * The one canonical spelling of an existing folder: the operating system's own realpath
 * (`realpath(3)` on POSIX, `GetFinalPathNameByHandle` on Windows), which resolves links, 8.3
 * short names, letter case on Windows and substituted drives. The JavaScript realpathSync keeps
 * the case and short names it was given, so two spellings of one folder would be two workspaces
 * with two sets of sessions, and a path the native realpath returned would not compare equal.
 */
export function canonicalPath(folder: string, realpath: (p: string) => string = realpathSync.native): string {
  return realpath(folder);
}
