import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What git inside a linked worktree (a helper's, or the person's own `git worktree add`) must
 * write outside it: a linked worktree's `.git` is a file naming its admin folder
 * `<repo>/.git/worktrees/<name>` (its index, HEAD, logs), and a commit writes its objects and
 * refs in the repository's own `.git`. Those three (and the reflogs, when there are any) are
 * returned, never the `.git` folder itself: its hooks/ and config stay unwritable, the same rule
 * the sandbox keeps for a workspace whose `.git` is a folder. Empty when the workspace is not in a
 * linked worktree (a plain repository's `.git` is already the workspace's, or above it) or when
 * what the `.git` file says cannot be read.
 */
export function linkedWorktreeGitPaths(workspace: string): string[] {
  const dotGit = findDotGit(workspace);
  if (dotGit === null || !statSync(dotGit).isFile()) return [];
  const admin = readPointer(dotGit, /^gitdir: (.+)$/m);
  if (admin === null || !existsSync(admin)) return [];
  const commonFile = path.join(admin, 'commondir');
  const common = existsSync(commonFile) ? readPointer(commonFile, /^(.+)$/m) : null;
  if (common === null || !existsSync(common)) return [];
  // Only a worktree the repository itself registered: its admin folder under <common>/worktrees,
  // naming this `.git` back. A `.git` file written to point anywhere else (an agent's, to widen
  // the next sandbox) gives nothing.
  const registered = path.dirname(admin) === path.join(common, 'worktrees') && readPointer(path.join(admin, 'gitdir'), /^(.+)$/m) === dotGit;
  if (!registered) return [];
  const inside = ['objects', 'refs', 'logs'].map((name) => path.join(common, name)).filter((folder) => existsSync(folder));
  return [admin, ...inside];
}

/**
 * The files that say where a linked worktree's repository is: its `.git` file, and its admin
 * folder's `commondir` and `gitdir`. Written inside the sandbox, they would point Keel's own git
 * calls in the worktree (run outside it) at a config the command wrote, whose filter driver or
 * fsmonitor then runs unconfined; so they stay read-only. Empty where linkedWorktreeGitPaths is.
 */
export function linkedWorktreePointers(workspace: string): string[] {
  const admin = linkedWorktreeGitPaths(workspace)[0];
  const dotGit = findDotGit(workspace);
  if (admin === undefined || dotGit === null) return [];
  return [dotGit, path.join(admin, 'commondir'), path.join(admin, 'gitdir')].filter((file) => existsSync(file));
}

/** The top of the work tree the workspace is in (where its `.git` is), or null outside any. */
export function gitTopOf(workspace: string): string | null {
  const dotGit = findDotGit(workspace);
  return dotGit === null ? null : path.dirname(dotGit);
}

/** The nearest `.git` at or above the workspace, or null. */
function findDotGit(workspace: string): string | null {
  for (let dir = path.resolve(workspace); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The path a git pointer file names, resolved against the file's folder (git writes both kinds). */
function readPointer(file: string, line: RegExp): string | null {
  try {
    const match = line.exec(readFileSync(file, 'utf8'));
    return match ? path.resolve(path.dirname(file), match[1]!.trim()) : null;
  } catch {
    return null;
  }
}
