import { diffPlans, type PlanChange } from '../../common/plan/diff';
import { overridesOfPersonEdits } from '../../common/plan/overrides';
import type { PlanItem, PlanSource, PlanVersion } from '../../common/plan/types';
import { validatePlan, type PlanRefusal } from '../../common/plan/validate';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';

export type ProposeResult =
  | { ok: true; version: PlanVersion; changes: PlanChange[] }
  | { ok: false; reason: 'invalid'; error: PlanRefusal }
  | { ok: false; reason: 'conflict'; current: PlanVersion | null };

/**
 * The plan as its own store, apart from the message history (docs/plan-rules.md, "What the plan is
 * not"). Every change passes validatePlan; each accepted one becomes a numbered version with its
 * source. No I/O: the session persists versions by listening.
 */
export class PlanStore {
  private readonly versions: PlanVersion[] = [];
  private readonly changed = new Emitter<[version: PlanVersion, changes: PlanChange[]]>();
  private stale = 0;
  /** The person's edits after this version are theirs for the current task (see `startTask`). */
  private taskFrom: number;

  constructor(
    history: readonly PlanVersion[] = [],
    private readonly now: () => Date = () => new Date(),
  ) {
    this.versions.push(...history);
    // A restored session starts afresh: what the person edited in earlier tasks was settled there.
    this.taskFrom = this.version;
  }

  /**
   * A task ended: the person's edits up to now belong to the tasks before, and a later task's new
   * plan is free to replace them. Edits made from now on (while idle too) belong to the next task.
   */
  endTask(): void {
    this.taskFrom = this.version;
  }

  /** The latest version, or null before the first. */
  get current(): PlanVersion | null {
    return this.versions.at(-1) ?? null;
  }

  get version(): number {
    return this.current?.version ?? 0;
  }

  get items(): PlanItem[] {
    return this.current?.items ?? [];
  }

  get history(): readonly PlanVersion[] {
    return this.versions;
  }

  /** Model rounds since the plan was last updated (docs/plan-rules.md, "Reminder"). */
  get roundsSinceUpdate(): number {
    return this.stale;
  }

  getVersion(version: number): PlanVersion | null {
    return this.versions.find((v) => v.version === version) ?? null;
  }

  /** The changes from `fromVersion` (0 = the empty plan) to the current version. */
  changesSince(fromVersion: number): PlanChange[] {
    return diffPlans(this.getVersion(fromVersion)?.items ?? [], this.items);
  }

  /**
   * Has the model missed a person's edit? The changes from `seenVersion` (the newest version the
   * model has been shown) to now when a user version came after it, else null. The one answer to
   * that question, asked before the model's `todo` call and before each model request.
   */
  userEditsSince(seenVersion: number): PlanChange[] | null {
    const unseen = this.versions.some((v) => v.version > seenVersion && v.source === 'user');
    return unseen ? this.changesSince(seenVersion) : null;
  }

  /**
   * Propose a whole new list. With `baseVersion`, the proposal is refused as a conflict when the
   * plan has moved on since that version: nothing is merged silently.
   */
  propose(items: unknown, options: { source: PlanSource; baseVersion?: number }): ProposeResult {
    if (options.baseVersion !== undefined && options.baseVersion !== this.version) {
      return { ok: false, reason: 'conflict', current: this.current };
    }
    // Every id the history ever held is off limits for new items, so changesSince() across several
    // versions reports a deleted step and a later new step as a removal and an addition.
    const usedIds = this.versions.flatMap((v) => v.items.map((item) => item.id));
    const checked = validatePlan(items, this.items, { usedIds });
    if (!checked.ok) return { ok: false, reason: 'invalid', error: checked.error };
    const changes = diffPlans(this.items, checked.items);
    const version: PlanVersion = {
      version: this.version + 1,
      source: options.source,
      items: checked.items,
      at: this.now().toISOString(),
    };
    // Accepted, but the person is told where the agent's list undid one of their edits of this task.
    const overrides = options.source === 'agent' ? overridesOfPersonEdits(this.versions, checked.items, this.taskFrom) : [];
    if (overrides.length > 0) version.overrides = overrides;
    this.versions.push(version);
    if (options.source === 'agent') this.stale = 0;
    this.changed.fire(version, changes);
    return { ok: true, version, changes };
  }

  /** Count one model round; a round that called `todo` resets the count instead. */
  recordRound(calledTodo: boolean): void {
    this.stale = calledTodo ? 0 : this.stale + 1;
  }

  /** An accepted user edit has been shown to the model: that too counts as an update. */
  resetStaleRounds(): void {
    this.stale = 0;
  }

  /** Each accepted version; a listener that throws (a failed transcript write) does not stop the others. */
  onChange(listener: (version: PlanVersion, changes: PlanChange[]) => void): Disposable {
    return this.changed.on(listener);
  }
}
