import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { git, gitLine, HelperGitError } from './gitCommand';

/** Where a workspace sits in its git repository. */
export interface WorkspaceRepository {
  /** The workspace's real path. */
  workspace: string;
  /** The top of the work tree the workspace is in (a linked worktree's own top, if it is one). */
  root: string;
  /** The workspace's path inside the work tree, '' at the top, else 'sub/dir/' (forward slashes, trailing slash). */
  prefix: string;
  /** The index file of the person's work tree (it may not exist yet in a repository with no commits). */
  indexFile: string;
}

/**
 * True when the workspace is a folder of a git work tree that git will answer for (a repository
 * with no commits yet counts), and the folder is not one the repository ignores (a home folder
 * tracked by a dotfiles repository with `*` ignored is not a git workspace for helpers: a snapshot
 * of it would be empty).
 */
export async function isGitWorkspace(workspace: string): Promise<boolean> {
  try {
    await locateRepository(workspace);
    return true;
  } catch (error) {
    if (error instanceof HelperGitError) return false;
    throw error;
  }
}

/** Finds the repository of a workspace, or throws `not_git` (`git_missing` without git). */
export async function locateRepository(workspace: string): Promise<WorkspaceRepository> {
  let real: string;
  try {
    real = await realpath(workspace);
  } catch {
    throw new HelperGitError('not_git', `${workspace} does not exist`);
  }
  let lines: string[];
  try {
    // One call: whether it is a work tree, its top, the workspace's prefix and the index's path.
    const out = await gitLine(['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--show-prefix', '--git-path', 'index'], { cwd: real });
    lines = out.split('\n');
  } catch (error) {
    if (error instanceof HelperGitError && error.code === 'git_missing') throw error;
    throw new HelperGitError('not_git', `${real} is not in a git work tree`);
  }
  if (lines[0] !== 'true' || lines.length < 4) throw new HelperGitError('not_git', `${real} is not in a git work tree`);
  const root = await realpath(lines[1]!);
  const prefix = lines[2]!;
  const indexFile = path.resolve(real, lines[3]!);
  if (prefix !== '') {
    const ignored = await git(['check-ignore', '-q', '--no-index', '--', prefix], { cwd: root, okCodes: [1] });
    if (ignored.code === 0) throw new HelperGitError('not_git', `${real} is ignored by the repository at ${root}`);
  }
  return { workspace: real, root, prefix, indexFile };
}
