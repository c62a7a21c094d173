import type { AgentState, TaskOutcome } from '../agentEvents';

/**
 * The one derivation of how a session stands once its task has ended (issue 16.4), used by the
 * session list, the status bar, the plan board and the chat alike. The recorded outcome says how
 * the task ended; the plan as it stands now decides between done and unfinished, so a task that
 * ended with open steps is not "Done", and a plan the person marked done is no longer "unfinished".
 */
export function settledOutcome(outcome: TaskOutcome | null, openSteps: number | undefined, openAtEnd?: number): TaskOutcome | null {
  if (outcome === null || openSteps === undefined) return outcome;
  if (outcome === 'stopped_unfinished') return openSteps > 0 ? 'stopped_unfinished' : 'done';
  // Steps the person added after a task that finished its plan are new work, not an unfinished task.
  if (outcome === 'done') return openSteps > 0 && (openAtEnd === undefined || openAtEnd > 0) ? 'stopped_unfinished' : 'done';
  return outcome;
}

/** The status bar's state: while running, what the agent does; after, the settled outcome. */
export function settledAgentState(state: AgentState, running: boolean, openSteps: number | undefined, openAtEnd?: number): AgentState {
  if (running || (state !== 'done' && state !== 'stopped_unfinished')) return state;
  return settledOutcome(state, openSteps, openAtEnd) === 'done' ? 'done' : 'stopped_unfinished';
}

/** Continue is offered after any stop, the person's or the gate's, while steps are open (issue 16.8). */
export function canContinue(outcome: TaskOutcome | null, openSteps: number): boolean {
  return openSteps > 0 && (outcome === 'stopped_unfinished' || outcome === 'cancelled');
}
