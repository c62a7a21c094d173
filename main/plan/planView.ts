import type { PlanChange } from '../../common/plan/diff';
import type { PlanStore } from './store';

export interface PlanViewOptions {
  /** The newest version this model was shown before (restored from the transcript); 0 for none. */
  seenVersion?: number;
  /** Told each time the seen version moves, to keep it (the session writes a `plan_seen` record). */
  onSeen?: (version: number) => void;
}

/**
 * What one agent's model has seen of the shared plan: the newest version it was shown (by its own
 * `todo` call, a tool result, a `<plan-update>` or the reminder) and the rounds since it last
 * updated the plan. From these follow the person's edits it has not seen and whether the reminder
 * is due. One per agent: the plan is shared, what each model has seen of it is not.
 */
export class PlanView {
  private seen: number;
  private stale = 0;

  constructor(
    readonly plan: PlanStore,
    private readonly options: PlanViewOptions = {},
  ) {
    this.seen = options.seenVersion ?? 0;
  }

  /** The newest plan version this model has been shown. */
  get seenVersion(): number {
    return this.seen;
  }

  /** Model rounds since this model last updated the plan or was shown the person's edits (docs/plan-rules.md, "Reminder"). */
  get roundsSinceUpdate(): number {
    return this.stale;
  }

  /** The changes since the seen version when the person edited the plan after it, else null. */
  unseenUserEdits(): PlanChange[] | null {
    return this.plan.userEditsSince(this.seen);
  }

  /** The model has been shown the plan as of `version` (default: as it is now). */
  markSeen(version = this.plan.version): void {
    if (version === this.seen) return;
    this.seen = version;
    this.options.onSeen?.(version);
  }

  /** One model round ended; a round that called `todo` counts as an update. */
  recordRound(calledTodo: boolean): void {
    this.stale = calledTodo ? 0 : this.stale + 1;
  }

  /** The plan as of `version` is this model's own update, or the person's edits it was just shown: seen, and counted as an update. */
  updated(version = this.plan.version): void {
    this.markSeen(version);
    this.stale = 0;
  }
}
