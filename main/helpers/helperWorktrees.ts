import type { Worktrees } from './worktrees';

/**
 * The folder's worktrees for helpers, or null when helpers must work in the folder itself (it is
 * not a git repository). Until the git plumbing (main/helpers/git/) is in, always null.
 */
export async function helperWorktrees(_workspace: string, _dataDir: string): Promise<Worktrees | null> {
  return null;
}
