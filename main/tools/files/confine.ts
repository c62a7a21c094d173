import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside as isInsideOn, relativeInside } from '../../platform/paths';
import { pathProblem } from '../../platform/pathRules';
import { isSecretPath } from '../../sandbox/secretPaths';

export type Resolved =
  | {
      ok: true;
      /** Real absolute path: every symlink that exists on the way is resolved, so the tool touches exactly what was checked. */
      absolute: string;
      /** Workspace-relative path with forward slashes ('.' for the workspace itself), for messages and listings. */
      relative: string;
    }
  | { ok: false; message: string };

export interface ConfineOptions {
  /** The path is to be created or written (write_file, edit_file): stricter name rules apply. */
  writing?: boolean;
  /** Whose name rules apply; this machine's by default (tests pass 'win32'). */
  platform?: NodeJS.Platform;
  /** Paths never handed out even inside the workspace (the sandbox's list: see sandbox/secretPaths). */
  secrets?: readonly string[];
}

/** Linux gives up after 40 links; a loop of links must end in an error, not a hang. */
const MAX_LINK_HOPS = 40;

/**
 * Resolves a path the model gave against the workspace and refuses anything that lands outside it:
 * `..` escapes, absolute paths elsewhere, and symbolic links (anywhere in the path, dangling or not)
 * that lead out. Paths that do not exist yet are resolved through their deepest existing ancestor,
 * so a write cannot escape through a symlinked parent folder either.
 */
export async function resolveInWorkspace(workspace: string, userPath: string, options: ConfineOptions = {}): Promise<Resolved> {
  if (userPath.trim() === '') {
    return { ok: false, message: 'The path is empty. Give a path relative to the workspace, like "src/index.ts".' };
  }
  // Before any file-system call: some paths do harm on Windows merely by being opened.
  const problem = pathProblem(userPath, { platform: options.platform, writing: options.writing });
  if (problem !== undefined) return { ok: false, message: problem };
  let root: string;
  try {
    root = await realpath(workspace);
  } catch {
    return { ok: false, message: `The workspace folder ${workspace} cannot be opened. Check that it still exists.` };
  }
  const wanted = path.resolve(root, userPath);
  let real: string;
  try {
    real = await resolveReal(wanted, 0);
  } catch (error) {
    if (!isInside(root, wanted)) return { ok: false, message: outsideMessage(userPath, root) };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      return { ok: false, message: `The path "${userPath}" goes through a loop of symbolic links. Use a path without the looping link.` };
    }
    return { ok: false, message: `The path "${userPath}" cannot be resolved (${code ?? String(error)}).` };
  }
  if (!isInside(root, real)) {
    if (!isInside(root, wanted)) return { ok: false, message: outsideMessage(userPath, root) };
    return {
      ok: false,
      message: `The path "${userPath}" leads through a symbolic link to ${real}, outside the workspace (${root}). Paths must stay inside the workspace.`,
    };
  }
  if (options.secrets && isSecretPath(real, options.secrets)) {
    return { ok: false, message: `The path "${userPath}" holds credentials (${real}) that Keel's tools and sandboxed commands do not read.` };
  }
  return { ok: true, absolute: real, relative: toRelative(root, real) };
}

/** The workspace-relative form of an absolute path inside it, with forward slashes. */
export function toRelative(root: string, absolute: string): string {
  const inside = relativeInside(root, absolute);
  if (inside !== undefined) return inside === '' ? '.' : inside;
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** Inside by this platform's rules (letter case ignored on Windows and macOS); see platform/paths. */
export function isInside(root: string, candidate: string): boolean {
  return isInsideOn(root, candidate);
}

function outsideMessage(userPath: string, root: string): string {
  return `The path "${userPath}" is outside the workspace (${root}). Paths must stay inside the workspace: use a path relative to it, like "src/index.ts".`;
}

/**
 * realpath for paths that may not exist: the existing part is resolved by the OS, the rest appended.
 * A dangling symlink is followed by hand, because writing to it would create its target.
 */
async function resolveReal(absolute: string, hops: number): Promise<string> {
  if (hops > MAX_LINK_HOPS) {
    throw Object.assign(new Error('too many symbolic links'), { code: 'ELOOP' });
  }
  try {
    return await realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  // The parent first, so a link's relative target is read from the folder the OS would read it from.
  const realParent = await resolveReal(parent, hops);
  const candidate = path.join(realParent, path.basename(absolute));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch {
    // Does not exist (or its parent is not a folder): the name is simply appended.
  }
  if (isLink) {
    return resolveReal(path.resolve(realParent, await readlink(candidate)), hops + 1);
  }
  return candidate;
}
