import type { PlanStep } from './schemas';
import type { PlanSource } from './types';
import type { PlanItem } from './types';

interface Version {
  version: number;
  source: PlanSource;
  items: PlanItem[];
}

/** What an accepted `todo` call changed, and what the person had changed before it. */
export interface TodoCallStep {
  /** The version the call replaced, and the one it stored: the agent's own change. */
  plan: PlanStep;
  /** The person's edits since the agent's previous plan, when the call replaced one of theirs. */
  yours?: PlanStep;
}

/**
 * The step of the agent's call that stored the newest version of `history`, replacing version
 * `replaced`. A card that diffed the call against the agent's own previous call would credit the
 * person's edit to the agent; this diffs against what the call replaced. Null when the call stored
 * nothing.
 */
export function todoCallStep(history: readonly Version[], replaced: number): TodoCallStep | null {
  const stored = history.at(-1);
  if (!stored || stored.version === replaced || stored.source !== 'agent') return null;
  const at = history.findIndex((version) => version.version === replaced);
  const before = at >= 0 ? history[at]! : null;
  const plan = { before: before?.items ?? [], after: stored.items };
  if (before?.source !== 'user') return { plan };
  let agent = at;
  while (agent >= 0 && history[agent]!.source === 'user') agent--;
  return { plan, yours: { before: agent >= 0 ? history[agent]!.items : [], after: before.items } };
}
