import type { RequestOutput } from '../../common/contract';
import type { HelperWorktree, MergeOutcome, MergeStrategy, PendingWorktree } from './git';

/*
 * What the helpers need of git (main/helpers/git/): a worktree per helper made from the folder as
 * it is now, its changes, a three-way merge back into the folder, its removal. The pool codes
 * against this shape; without git there is none and helpers work one at a time in the folder.
 */

export type { HelperWorktree, MergeOutcome, MergeStrategy, PendingWorktree };

export interface Worktrees {
  create(helperId: string): Promise<HelperWorktree>;
  /** The helper's place at once, its checkout under way (`ready`): a helper need not wait for it to ask its model. */
  begin(helperId: string): Promise<PendingWorktree>;
  /** Workspace-relative paths the helper changed in its worktree. */
  changedFiles(worktree: HelperWorktree): Promise<string[]>;
  /** `asListed`: merge the files changedFiles() listed last instead of looking again (see HelperWorktrees.merge). */
  merge(worktree: HelperWorktree, strategy?: MergeStrategy, options?: { asListed?: boolean }): Promise<MergeOutcome>;
  /** The helper's version of its changed files beside the base and the folder's, for the person. */
  version(worktree: HelperWorktree): Promise<RequestOutput<'helper.openVersion'>>;
  /** Keeps it for the person of session `sessionId` (conflict, stopped with changes): it survives a restart. */
  keep(worktree: HelperWorktree, sessionId: string): Promise<void>;
  /** The worktrees kept for session `sessionId`, found again after a restart. */
  kept(sessionId: string): Promise<HelperWorktree[]>;
  /** Returns once the worktree is gone from git and the board; its files may still be deleted after. */
  remove(worktree: HelperWorktree): Promise<void>;
  /** Waits for removed worktrees' files to be deleted (the session closes). */
  dispose(): Promise<void>;
}
