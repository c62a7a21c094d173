/*
 * A helper's states and which of them are final, without the schemas of common/helpers.ts: the
 * board's chunk reads them, and zod (with every schema it would build as it loads) stays out of it.
 */

/**
 * A helper's life, as the board shows it under its step:
 * - starting: its worktree is being made (or, outside git, it waits its turn in the folder);
 * - thinking / tool / waiting_approval: the agent loop's state;
 * - merging: its changes are being merged into the folder;
 * - done: finished and merged (or nothing to merge);
 * - conflict: finished, but its changes could not be merged: the folder is unchanged, its
 *   worktree is kept until the person merges or discards it (`conflictFiles`);
 * - failed: the model or Keel failed, or it made no progress for `helpers.stallSeconds`;
 * - stopped: the person (or the main task's Stop) stopped it.
 * A failed or stopped helper that changed files keeps its worktree too (`worktreeKept`).
 */
export const HELPER_STATES = ['starting', 'thinking', 'tool', 'waiting_approval', 'merging', 'done', 'conflict', 'failed', 'stopped'] as const;
export type HelperState = (typeof HELPER_STATES)[number];

/** States after which the helper's agent loop no longer runs. */
export const HELPER_ENDED_STATES: readonly HelperState[] = ['done', 'conflict', 'failed', 'stopped'];
export const isHelperEnded = (state: HelperState): boolean => HELPER_ENDED_STATES.includes(state);
