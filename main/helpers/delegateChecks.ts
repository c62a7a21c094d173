import type { DelegateErrorCode } from '../../common/helpers';
import { unfinishedBlockers } from '../../common/plan/graph';
import type { PlanItem } from '../../common/plan/types';

export type DelegateCheck = { ok: true; item: PlanItem } | { ok: false; code: DelegateErrorCode; message: string };

/** What the pool knows when a delegate call comes: which helpers hold steps, and how many run. */
export interface DelegateState {
  /** Helper ids whose step is still theirs (running, or its worktree kept for the person). */
  holders: ReadonlySet<string>;
  running: number;
  max: number;
}

/**
 * Whether the main plan's step `itemId` may be handed to a new helper: it exists, its blockers are
 * completed, it is not completed, no helper holds it, and fewer than `max` helpers run. Each
 * refusal tells the model what to do instead.
 */
export function checkDelegate(items: readonly PlanItem[], itemId: string, state: DelegateState): DelegateCheck {
  const id = itemId.replace(/^#/, '').trim();
  const item = items.find((candidate) => candidate.id === id);
  if (!item) {
    const ids = items.map((candidate) => `#${candidate.id}`).join(', ');
    return refuse(
      'unknown_item',
      `There is no step #${id} in the plan${ids ? ` (its steps: ${ids})` : ' (the plan is empty)'}. Write the plan with the todo tool first, then delegate one of its steps by id.`,
    );
  }
  if (item.status === 'completed') return refuse('item_completed', `Step #${id} "${item.content}" is already completed: there is nothing to delegate.`);
  if (item.owner !== undefined && state.holders.has(item.owner))
    return refuse('item_owned', `Step #${id} "${item.content}" is already ${item.owner}'s. Wait for its result, or delegate another step.`);
  const blockers = unfinishedBlockers(item, items);
  if (blockers.length > 0)
    return refuse(
      'item_blocked',
      `Step #${id} "${item.content}" waits for ${blockers.map((b) => `#${b.id} "${b.content}"`).join(', ')}, not completed yet. Delegate it once those are done.`,
    );
  if (state.running >= state.max)
    return refuse(
      'too_many_helpers',
      `${state.running} helpers are already working (at most ${state.max} at once). Wait for one to finish, or do this step yourself.`,
    );
  return { ok: true, item };
}

function refuse(code: DelegateErrorCode, message: string): DelegateCheck {
  return { ok: false, code, message };
}

/** A refusal as the model reads it: the code first, so tests and logs can branch on it. */
export const refusalText = (code: DelegateErrorCode, message: string): string => `[${code}] ${message}`;
