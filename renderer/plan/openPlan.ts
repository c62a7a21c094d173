import type { KeelApi, PlanSnapshot } from '../../common/contract';
import type { Result } from '../../common/result';

/**
 * The open session's stored plan as this window last heard it, shared by the status bar (whose
 * `plan.get` goes out with the window's first requests) and the plan board (whose chunk arrives
 * later): the board draws the plan at its first render, or with that first answer, instead of
 * asking again once it is on screen.
 *
 * main answers `plan.get` for the session open when it answers, which the window may not know yet
 * when it asks. So what is held belongs to a stretch between two `workspace.changed` events, and
 * to the session that event named (or a `workspace.current` asked and answered in the stretch); an
 * answer that arrives in a later stretch than it was asked in may be either session's, and is not
 * kept.
 */
export class OpenPlan {
  private stretch = 0;
  /** main's open session in this stretch: undefined until known, null for no folder. */
  private session: string | null | undefined = undefined;
  private snapshot: PlanSnapshot | null = null;
  private asking: Promise<Result<PlanSnapshot>> | null = null;

  constructor(private readonly api: KeelApi) {
    api.on('workspace.changed', (next) => {
      this.stretch++;
      this.session = next?.sessionId ?? null;
      this.snapshot = null;
      this.asking = null;
    });
    api.on('plan.changed', (next) => this.hold(this.stretch, next));
  }

  /** The plan main last reported for `sessionId`, or null when this window has not heard it. */
  peek(sessionId: string): PlanSnapshot | null {
    return this.session === sessionId ? this.snapshot : null;
  }

  /** `plan.get`, or the answer to one already on its way in this stretch. */
  request(): Promise<Result<PlanSnapshot>> {
    if (this.asking) return this.asking;
    const stretch = this.stretch;
    if (this.session === undefined) {
      void this.api.request('workspace.current', {}).then((result) => {
        if (result.ok && stretch === this.stretch) this.session = result.value?.sessionId ?? null;
      });
    }
    const asking = this.api.request('plan.get', {}).then((result) => {
      if (this.asking === asking) this.asking = null;
      if (result.ok) this.hold(stretch, result.value);
      return result;
    });
    this.asking = asking;
    return asking;
  }

  private hold(stretch: number, next: PlanSnapshot): void {
    if (stretch !== this.stretch) return;
    if (this.snapshot === null || next.version > this.snapshot.version) this.snapshot = next;
  }
}
