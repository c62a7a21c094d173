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
      await this.mergeNow(helper, worktrees, strategy);
    } finally {
      helper.settleMerge();
    }
  }

  /** Merges now (after any merge under way); the worktree goes when nothing is left to merge. */
  mergeNow(helper: Helper, worktrees: Worktrees, strategy: MergeStrategy): Promise<void> {
    const run = this.queue.then(async () => {
      const worktree = helper.worktree;
      if (!worktree) return;
      const before = helper.info.state;
      helper.update({ state: 'merging' });
      const outcome = await worktrees.merge(worktree, strategy).catch((error: unknown) => {
        helper.update({ state: before });
        throw error;
      });
      if (outcome.kind === 'conflict') {
        helper.update({ state: 'conflict', merge: 'conflict', conflictFiles: outcome.files, worktreeKept: true });
        return;
      }
      await worktrees.remove(worktree);
      helper.update({ state: 'done', merge: outcome.kind, conflictFiles: [], worktreeKept: false });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
