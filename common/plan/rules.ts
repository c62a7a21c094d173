import { renderPlanChanges, type PlanChange } from './diff';
import { ownerOf } from './graph';
import { renderItem, renderPlan, unfinishedItems } from './render';
import { MAIN_OWNER, type PlanItem } from './types';

/**
 * The items an agent answers for: a helper its own; the main agent the whole plan, since the task
 * is its to finish, whoever works a step.
 */
export function itemsOf(items: readonly PlanItem[], owner: string = MAIN_OWNER): PlanItem[] {
  return owner === MAIN_OWNER ? [...items] : items.filter((item) => ownerOf(item) === owner);
}

/**
 * docs/plan-rules.md, "Reminder": due when a plan with open items has gone `threshold` model rounds
 * without an update, then again after every further `threshold` stale rounds; never while the
 * agent waits for the person.
 */
export function reminderDue(state: {
  items: readonly PlanItem[];
  roundsSinceUpdate: number;
  threshold: number;
  waitingForUser: boolean;
  owner?: string;
}): boolean {
  if (state.waitingForUser || state.threshold < 1) return false;
  if (unfinishedItems(itemsOf(state.items, state.owner)).length === 0) return false;
  return state.roundsSinceUpdate > 0 && state.roundsSinceUpdate % state.threshold === 0;
}

export function reminderText(items: readonly PlanItem[], roundsSinceUpdate: number): string {
  return (
    `<reminder>You have not updated the plan for ${roundsSinceUpdate} rounds. ` +
    `If a step is finished, mark it completed; mark the step you are working on in_progress; ` +
    `change the plan if the work has changed. Call the todo tool with the whole list.\n\n` +
    `${renderPlan(items)}</reminder>`
  );
}

export type GateDecision = { kind: 'done' } | { kind: 'continue'; message: string } | { kind: 'stop'; unfinished: PlanItem[] };

/**
 * docs/plan-rules.md, "Completion gate": the agent `owner` (the main agent by default) ended its
 * turn without a tool call. `planTouchedThisTask` is whether the agent or the person made or
 * changed the plan during the current task; `continuesInARow` counts the gate's own nudges since
 * the model last did anything else.
 */
export function completionGate(state: {
  items: readonly PlanItem[];
  planTouchedThisTask: boolean;
  continuesInARow: number;
  bound: number;
  owner?: string;
}): GateDecision {
  const unfinished = unfinishedItems(itemsOf(state.items, state.owner));
  if (!state.planTouchedThisTask || unfinished.length === 0) return { kind: 'done' };
  if (state.continuesInARow >= state.bound) return { kind: 'stop', unfinished };
  const list = unfinished.map((item) => `- [${item.status === 'in_progress' ? '>' : ' '}] ${renderItem(item, state.items)}`).join('\n');
  return {
    kind: 'continue',
    message:
      `The task is not finished: ${unfinished.length} plan item${unfinished.length === 1 ? ' is' : 's are'} still open${countsByOwner(unfinished, state.owner ?? MAIN_OWNER)}:\n${list}\n\n` +
      `Continue with the work. If the work has changed, or a step is no longer needed, update the plan with the todo tool first.`,
  };
}

/** " (2 of yours, 1 of helper-1's)" when more than one agent holds open items; else nothing. */
function countsByOwner(open: readonly PlanItem[], self: string): string {
  const counts = new Map<string, number>();
  for (const item of open) counts.set(ownerOf(item), (counts.get(ownerOf(item)) ?? 0) + 1);
  if (counts.size < 2) return '';
  const parts = [...counts]
    .sort(([a], [b]) => (a === self ? -1 : b === self ? 1 : 0))
    .map(([owner, count]) => `${count} of ${owner === self ? 'yours' : `${owner}'s`}`);
  return ` (${parts.join(', ')})`;
}

/** The `<plan-update source="user">` block that tells the model of the person's edits. */
export function userPlanUpdateText(changes: readonly PlanChange[], items: readonly PlanItem[]): string {
  return (
    `<plan-update source="user">The person changed the plan:\n${renderPlanChanges(changes)}\n\n` +
    `The plan now stands as:\n${renderPlan(items)}\n` +
    `Follow this plan; base any further todo call on it.</plan-update>`
  );
}

const STALE_REWRITE_OPENING = 'Plan not changed: the person edited the plan after the version you based this call on';

/**
 * Whether a `todo` result is the stale-rewrite refusal: the window shows it as what it is (the agent
 * was asked to redo its update), not as a failure (issue 16.5). The model still reads the text.
 */
export function isStaleRewriteRefusal(result: string): boolean {
  return result.startsWith(STALE_REWRITE_OPENING);
}

/** Refusal for a model rewrite made on a plan older than a user edit it had not been shown. */
export function staleRewriteText(changes: readonly PlanChange[], items: readonly PlanItem[]): string {
  return (
    `${STALE_REWRITE_OPENING}, and your list would overwrite their change.\n` +
    `Their change:\n${renderPlanChanges(changes)}\n\n` +
    `The plan now stands as:\n${renderPlan(items)}\n` +
    `Call todo again with the whole list based on this plan.`
  );
}
