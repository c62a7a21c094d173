import { sessionExists } from '../session/sessionIndex';
import { HelperWorktrees, isGitWorkspace } from './git';
import type { Worktrees } from './worktrees';

/**
 * The folder's worktrees for helpers, or null when helpers must work in the folder itself (it is
 * not a git repository). What a crashed Keel left of this folder's worktrees is swept first; those
 * kept for the person stay while their session exists.
 */
export async function helperWorktrees(workspace: string, dataDir: string, log?: (message: string) => void): Promise<Worktrees | null> {
  if (!(await isGitWorkspace(workspace))) return null;
  const worktrees = new HelperWorktrees({ workspace, dataDir });
  const swept = await worktrees.sweep({ sessionGone: (id) => !sessionExists(dataDir, workspace, id) }).catch(() => 0);
  if (swept > 0) log?.(`helpers: removed ${swept} worktree(s) left by an earlier run`);
  return {
    create: (helperId) => worktrees.create(helperId),
    begin: (helperId) => worktrees.begin(helperId),
    changedFiles: (worktree) => worktrees.changedFiles(worktree),
    merge: (worktree, strategy, options) => worktrees.merge(worktree, strategy, options),
    keep: (worktree, sessionId) => worktrees.keep(worktree, sessionId),
    kept: (sessionId) => worktrees.kept(sessionId),
    version: async (worktree) => ({ worktree: worktree.path, files: await worktrees.version(worktree) }),
    // Deleting a big worktree's files takes seconds: off the merge queue's path.
    remove: (worktree) => worktrees.remove(worktree, { background: true }),
    dispose: () => worktrees.dispose(),
  };
}

/**
 * A session of the folder was deleted: the worktrees kept for its helpers go, with their refs.
 * Returns how many; never throws (what is left, sweep() takes at the next start).
 */
export async function removeSessionWorktrees(workspace: string, dataDir: string, sessionId: string, log?: (message: string) => void): Promise<number> {
  try {
    if (!(await isGitWorkspace(workspace))) return 0;
    const worktrees = new HelperWorktrees({ workspace, dataDir });
    const removed = await worktrees.removeKept(sessionId);
    await worktrees.dispose();
    return removed;
  } catch (error) {
    log?.(`warning: could not remove the deleted session's helper worktrees: ${(error as Error).message}`);
    return 0;
  }
}
