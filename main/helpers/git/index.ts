// The git plumbing of helpers (issue 25): snapshots, worktrees, three-way merges, sweeping.
export { HelperGitError, type HelperGitErrorCode } from './gitCommand';
export { isGitWorkspace } from './repository';
export { HelperWorktrees, type HelperWorktree, type MergeOutcome, type MergeStrategy, type PendingWorktree, type VersionFile } from './helperWorktrees';
