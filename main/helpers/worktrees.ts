import type { RequestOutput } from '../../common/contract';

/*
 * What the helpers need of git (main/helpers/git/, built beside this): a worktree per helper made
 * from the folder as it is now, its changes, a three-way merge back into the folder, its removal
 * and a sweep of what a crash left. The pool codes against this shape; without git there is none
 * and helpers work one at a time in the folder itself.
 */

export interface HelperWorktree {
  helperId: string;
  /** Absolute path of the worktree the helper works in. */
  path: string;
  /** The commit (the folder's state when the helper started, uncommitted changes included) it merges against. */
  base: string;
}

export type MergeOutcome = { kind: 'merged'; files: string[] } | { kind: 'nothing' } | { kind: 'conflict'; files: string[] };

export type MergeStrategy = 'three_way' | 'theirs' | 'markers';

export interface Worktrees {
  create(helperId: string): Promise<HelperWorktree>;
  /** Workspace-relative paths the helper changed in its worktree. */
  changedFiles(worktree: HelperWorktree): Promise<string[]>;
  merge(worktree: HelperWorktree, strategy?: MergeStrategy): Promise<MergeOutcome>;
  /** The helper's version of its changed files beside the base and the folder's, for the person. */
  version(worktree: HelperWorktree): Promise<RequestOutput<'helper.openVersion'>>;
  remove(worktree: HelperWorktree): Promise<void>;
}
