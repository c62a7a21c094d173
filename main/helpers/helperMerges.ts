import { join } from 'node:path';
import type { ChangeRecorder } from '../changes/recorder';
import type { PlanStore } from '../plan/store';
import type { Helper } from './helper';
import type { MergeStrategy, Worktrees } from './worktrees';

/**
 * Brings helpers' changes into the folder one merge at a time, in the graph's order: a helper whose
 * step waits for another helper's step merges after that one has (or has given up).
 */
export class HelperMerges {
  /** One merge into the folder at a time: two merges would race on its files and its index. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly plan: PlanStore,
    private readonly helperOf: (owner: string) => Helper | undefined,
    /** The folder and its change records: a merge during a task is that task's change (the Changes view, undo). */
    private readonly folder: { workspace: string; changes?: ChangeRecorder },
  ) {}

  /** The merge a helper gets when it finishes: after the helpers of the steps its step waits for. */
  async mergeInOrder(helper: Helper, worktrees: Worktrees, strategy: MergeStrategy): Promise<void> {
    try {
      const step = this.plan.items.find((item) => item.id === helper.info.item);
      const before = (step?.blockedBy ?? []).flatMap((id) => {
        const owner = this.plan.items.find((item) => item.id === id)?.owner;
        const other = owner === undefined ? undefined : this.helperOf(owner);
        return other && other !== helper ? [other.mergeSettled] : [];
      });
      await Promise.all(before);
      // Its loop has ended and its changed files were just listed (and recorded): those merge.
      await this.mergeNow(helper, worktrees, strategy, { asListed: true });
    } finally {
      helper.settleMerge();
    }
  }

  /**
   * Merges now (after any merge under way); the worktree goes when nothing is left to merge. Only
   * the writing into the folder waits its turn: the worktree's removal does not hold the next merge.
   */
  async mergeNow(helper: Helper, worktrees: Worktrees, strategy: MergeStrategy, options: { asListed?: boolean } = {}): Promise<void> {
    const written = this.queue.then(async () => {
      const worktree = helper.worktree;
      if (!worktree) return null;
      const before = helper.info.state;
      helper.update({ state: 'merging' });
      const { workspace, changes } = this.folder;
      for (const file of helper.info.changedFiles) changes?.beforeFileChange(join(workspace, file));
      const outcome = await worktrees.merge(worktree, strategy, options).catch((error: unknown) => {
        helper.update({ state: before });
        throw error;
      });
      await changes?.afterToolCall();
      return { worktree, outcome };
    });
    this.queue = written.then(
      () => undefined,
      () => undefined,
    );
    const merged = await written;
    if (!merged) return;
    if (merged.outcome.kind === 'conflict') {
      helper.update({ state: 'conflict', merge: 'conflict', conflictFiles: merged.outcome.files, worktreeKept: true });
      return;
    }
    await worktrees.remove(merged.worktree);
    helper.update({ state: 'done', merge: merged.outcome.kind, conflictFiles: [], worktreeKept: false });
  }
}
