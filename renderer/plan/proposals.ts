import type { ProposedPlanItem } from '../../common/contract';
import type { PlanItem, PlanStatus } from '../../common/plan/types';

/*
 * Pure list operations of the board. Each takes the STORED items and returns the whole proposed
 * list that `plan.edit` will send (items keep their id; a new item has none), or null when the
 * operation would change nothing. None of them judges validity: that is the validator's job in main.
 */

export type Proposal = ProposedPlanItem[] | null;

function proposed(items: readonly PlanItem[]): ProposedPlanItem[] {
  return items.map((item) => {
    const copy: ProposedPlanItem = { id: item.id, content: item.content, status: item.status };
    if (item.activeForm !== undefined) copy.activeForm = item.activeForm;
    return copy;
  });
}

export function addItem(items: readonly PlanItem[], content: string): Proposal {
  return [...proposed(items), { content, status: 'pending' }];
}

export function deleteItem(items: readonly PlanItem[], id: string): Proposal {
  if (!items.some((item) => item.id === id)) return null;
  return proposed(items.filter((item) => item.id !== id));
}

export function rewordItem(items: readonly PlanItem[], id: string, content: string): Proposal {
  const target = items.find((item) => item.id === id);
  if (!target || target.content === content) return null;
  return proposed(items).map((item) => (item.id === id ? { ...item, content } : item));
}

export function setItemStatus(items: readonly PlanItem[], id: string, status: PlanStatus): Proposal {
  const target = items.find((item) => item.id === id);
  if (!target || target.status === status) return null;
  return proposed(items).map((item) => (item.id === id ? { ...item, status } : item));
}

/** Moves an item to `toIndex` (its position in the resulting list, clamped). */
export function moveItemTo(items: readonly PlanItem[], id: string, toIndex: number): Proposal {
  const from = items.findIndex((item) => item.id === id);
  if (from < 0) return null;
  const to = Math.max(0, Math.min(items.length - 1, toIndex));
  if (to === from) return null;
  const list = proposed(items);
  const [moved] = list.splice(from, 1);
  list.splice(to, 0, moved!);
  return list;
}

/** Moves an item one or more places up (negative) or down (positive). */
export function moveItemBy(items: readonly PlanItem[], id: string, delta: number): Proposal {
  const from = items.findIndex((item) => item.id === id);
  return from < 0 ? null : moveItemTo(items, id, from + delta);
}

/** Where a dragged item lands: just before or just after the item it was dropped on. */
export function moveItemNextTo(items: readonly PlanItem[], id: string, targetId: string, side: 'before' | 'after'): Proposal {
  if (id === targetId) return null;
  const rest = items.filter((item) => item.id !== id);
  const target = rest.findIndex((item) => item.id === targetId);
  if (target < 0 || rest.length === items.length) return null;
  return moveItemTo(items, id, side === 'before' ? target : target + 1);
}

export interface PlacedProblems {
  /** Messages about stored items, by item id. */
  byItem: Record<string, string[]>;
  /** Messages about a new item, or about the list when the edit was an addition. */
  add: string[];
  /** Messages about the list itself. */
  list: string[];
}

/**
 * Puts each of the validator's problems where the person will look for it. `index` is the
 * 0-based position in the PROPOSED list: it names a stored item by that item's id, or a new item.
 */
export function placeProblems(
  sent: readonly ProposedPlanItem[],
  problems: readonly { index: number | null; message: string }[],
  madeBy: 'add' | 'item',
): PlacedProblems {
  const placed: PlacedProblems = { byItem: {}, add: [], list: [] };
  for (const problem of problems) {
    const id = problem.index === null ? undefined : sent[problem.index]?.id;
    if (id !== undefined) (placed.byItem[id] ??= []).push(problem.message);
    else if (problem.index !== null || madeBy === 'add') placed.add.push(problem.message);
    else placed.list.push(problem.message);
  }
  return placed;
}

/** "Mark the plan done": every item completed, or null when they all are. */
export function completeAll(items: readonly PlanItem[]): Proposal {
  if (items.every((item) => item.status === 'completed')) return null;
  return proposed(items).map((item) => ({ ...item, status: 'completed' }));
}
