import type { Effort } from '../../common/modelCapabilities';
import type { ModelProfile } from '../models/modelProfile';

/** Where the pick is kept: the session's transcript, so a reopened session has it again. */
export interface EffortStore {
  readonly effort: Effort | null;
  setEffort(effort: Effort): void;
}

/**
 * The effort picked in the status bar for one session (the settings' applies until then). A pick
 * while a task runs reaches that task's next request too, unless the endpoint refused effort in it.
 */
export class SessionEffort {
  private running: ModelProfile | null = null;

  /** `store` is asked each time (the agent's session), so it may be given before it exists. */
  constructor(private readonly store: () => EffortStore) {}

  get chosen(): Effort | undefined {
    return this.store().effort ?? undefined;
  }

  set(effort: Effort): void {
    this.store().setEffort(effort);
    // A refused effort leaves the running profile without one: it stays off for that task.
    if (this.running?.effort !== undefined) this.running.effort = effort;
  }

  /** The running task's profile, from its start to its end (null); returns it. */
  track<P extends ModelProfile | null>(profile: P): P {
    this.running = profile;
    return profile;
  }
}
