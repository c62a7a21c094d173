import type { ScriptedRequest, StaticStep } from '../../support/scriptedAnthropic';

/**
 * Holds an agent's answer until the test releases it: `step` is the script step (it notes the
 * request and waits), `arrived` resolves with that request, `release` gives the answer. Meanwhile
 * the agent is thinking, which is what a test of live states needs.
 */
export function gate(): { arrived: Promise<ScriptedRequest>; release(step: StaticStep): void; step(request: ScriptedRequest): Promise<StaticStep> } {
  let arrive!: (request: ScriptedRequest) => void;
  let answer!: (step: StaticStep) => void;
  const arrived = new Promise<ScriptedRequest>((resolve) => (arrive = resolve));
  const answered = new Promise<StaticStep>((resolve) => (answer = resolve));
  return { arrived, release: (step) => answer(step), step: (request) => (arrive(request), answered) };
}
