import { HelperWorktrees, isGitWorkspace } from './git';
import type { Worktrees } from './worktrees';

/**
 * The folder's worktrees for helpers, or null when helpers must work in the folder itself (it is
 * not a git repository). What a crashed Keel left of this folder's worktrees is swept first.
 */
export async function helperWorktrees(workspace: string, dataDir: string, log?: (message: string) => void): Promise<Worktrees | null> {
  if (!(await isGitWorkspace(workspace))) return null;
  const worktrees = new HelperWorktrees({ workspace, dataDir });
  const swept = await worktrees.sweep().catch(() => 0);
  if (swept > 0) log?.(`helpers: removed ${swept} worktree(s) left by an earlier run`);
  return {
    create: (helperId) => worktrees.create(helperId),
    begin: (helperId) => worktrees.begin(helperId),
    changedFiles: (worktree) => worktrees.changedFiles(worktree),
    merge: (worktree, strategy, options) => worktrees.merge(worktree, strategy, options),
    version: async (worktree) => ({ worktree: worktree.path, files: await worktrees.version(worktree) }),
    // Deleting a big worktree's files takes seconds: off the merge queue's path.
    remove: (worktree) => worktrees.remove(worktree, { background: true }),
    dispose: () => worktrees.dispose(),
  };
}
