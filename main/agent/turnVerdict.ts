import type { Disposable } from '../../common/disposables';
import { completionGate } from '../../common/plan/rules';
import type { PlanStore } from '../plan/store';
import { unfinishedPlanMessage } from './modelTexts';
import type { Notify } from './notice';
import type { AfterStop } from './stopReasons';

/**
 * One task's verdict when the model ends its turn (docs/plan-rules.md, decided by
 * common/plan/rules.ts): done, sent on with the plan's open steps, or stopped after too many
 * such nudges in a row. Watches the plan from its creation to tell whether the task touched it.
 */
export class TurnVerdict {
  private planTouched = false;
  private continuesInARow = 0;
  private readonly stopWatching: Disposable;

  constructor(
    private readonly plan: PlanStore,
    private readonly bound: number,
    private readonly notice: Notify,
  ) {
    this.stopWatching = plan.onChange(() => (this.planTouched = true));
  }

  /** The model called tools: the nudges in a row start over. */
  toolRound(): void {
    this.continuesInARow = 0;
  }

  judge(): AfterStop {
    const { plan, continuesInARow } = this;
    const gate = completionGate({ items: plan.items, planTouchedThisTask: this.planTouched, continuesInARow, bound: this.bound });
    if (gate.kind === 'done') return { kind: 'end', end: { outcome: 'done' } };
    if (gate.kind === 'stop') {
      return { kind: 'end', end: { outcome: 'stopped_unfinished', message: unfinishedPlanMessage(continuesInARow + 1, gate.unfinished.length) } };
    }
    this.continuesInARow++;
    this.notice('gate', gate.message);
    return { kind: 'continue', pending: [{ type: 'text', text: gate.message }], paused: false };
  }

  dispose(): void {
    this.stopWatching();
  }
}
