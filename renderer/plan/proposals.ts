import type { ProposedPlanItem } from '../../common/contract';
import type { PlanOverride } from '../../common/plan/overrides';
import type { PlanItem, PlanStatus } from '../../common/plan/types';
import type { PlanProblem } from '../../common/plan/validate';

/*
 * Pure list operations of the board. Each takes the STORED items and returns the whole proposed
 * list that `plan.edit` will send (items keep their id; a new item has none), or null when the
 * operation would change nothing. None of them judges validity: that is the validator's job in main.
 */

export type Proposal = ProposedPlanItem[] | null;

/** Every field of every item, what each waits for and who owns it included: an edit changes only what the person changed. */
function proposed(items: readonly PlanItem[]): ProposedPlanItem[] {
  return items.map((item) => {
    const copy: ProposedPlanItem = { id: item.id, content: item.content, status: item.status, blockedBy: [...(item.blockedBy ?? [])] };
    if (item.activeForm !== undefined) copy.activeForm = item.activeForm;
    if (item.owner !== undefined) copy.owner = item.owner;
    return copy;
  });
}

export function addItem(items: readonly PlanItem[], content: string): Proposal {
  return [...proposed(items), { content, status: 'pending' }];
}

/** Removes a step; the steps that waited for it no longer do. */
export function deleteItem(items: readonly PlanItem[], id: string): Proposal {
  if (!items.some((item) => item.id === id)) return null;
  return proposed(items.filter((item) => item.id !== id)).map((item) => ({ ...item, blockedBy: item.blockedBy?.filter((other) => other !== id) }));
}

/** `id` waits for `on` from now on; null when it already does. */
export function addDependency(items: readonly PlanItem[], id: string, on: string): Proposal {
  const target = items.find((item) => item.id === id);
  if (!target || target.blockedBy?.includes(on)) return null;
  return proposed(items).map((item) => (item.id === id ? { ...item, blockedBy: [...(item.blockedBy ?? []), on] } : item));
}

/** `id` no longer waits for `on`; null when it did not. */
export function removeDependency(items: readonly PlanItem[], id: string, on: string): Proposal {
  const target = items.find((item) => item.id === id);
  if (!target?.blockedBy?.includes(on)) return null;
  return proposed(items).map((item) => (item.id === id ? { ...item, blockedBy: item.blockedBy?.filter((other) => other !== on) } : item));
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

/** A problem to place: one of the validator's, or a plain message (code and params absent). */
type ProblemToPlace = Pick<PlanProblem, 'index' | 'message'> & { code?: string; params?: PlanProblem['params'] };

/** A refusal as main sent it: the English message, and a code with params to say it in the window's language. */
export interface BoardProblem {
  message: string;
  code?: string;
  params?: PlanProblem['params'];
  /** For "only one in progress": the id of the step that already is, so the board can offer to swap. */
  otherId?: string;
}

export interface PlacedProblems {
  /** Problems with stored items, by item id. */
  byItem: Record<string, BoardProblem[]>;
  /** Problems with a new item, or with the list when the edit was an addition. */
  add: BoardProblem[];
  /** Problems with the list itself. */
  list: BoardProblem[];
}

/**
 * Puts each of the validator's problems where the person will look for it. `index` is the
 * 0-based position in the PROPOSED list: it names a stored item by that item's id, or a new item.
 */
export function placeProblems(sent: readonly ProposedPlanItem[], problems: readonly ProblemToPlace[], madeBy: 'add' | 'item'): PlacedProblems {
  const placed: PlacedProblems = { byItem: {}, add: [], list: [] };
  for (const { index, message, code, params } of problems) {
    const problem: BoardProblem = { message, ...(code ? { code } : {}), ...(params ? { params } : {}) };
    const other = params?.otherIndex;
    if (typeof other === 'number' && sent[other]?.id !== undefined) problem.otherId = sent[other].id;
    const id = index === null ? undefined : sent[index]?.id;
    if (id !== undefined) (placed.byItem[id] ??= []).push(problem);
    else if (index !== null || madeBy === 'add') placed.add.push(problem);
    else placed.list.push(problem);
  }
  return placed;
}

/**
 * "Only one in progress" is said about the step the person changed, naming the one that already
 * was: the validator, which does not know who changed what, marks the later ones in list order.
 */
export function aboutTheChangedStep<P extends ProblemToPlace>(problems: readonly P[], sent: readonly ProposedPlanItem[], stored: readonly PlanItem[]): P[] {
  return besideTheStepThatClosedTheCycle(inProgressBesideTheChangedStep(problems, sent, stored), sent, stored);
}

/**
 * A cycle is one problem beside each of its steps; the board shows it beside the step whose
 * dependencies the person changed, when that step is on the cycle.
 */
function besideTheStepThatClosedTheCycle<P extends ProblemToPlace>(
  problems: readonly P[],
  sent: readonly ProposedPlanItem[],
  stored: readonly PlanItem[],
): P[] {
  const dependenciesChanged = (index: number | null) => {
    const item = index === null ? undefined : sent[index];
    const old = stored.find((other) => other.id === item?.id);
    return item !== undefined && (old === undefined || (old.blockedBy ?? []).join('\n') !== (item.blockedBy ?? []).join('\n'));
  };
  const cycles = problems.filter((problem) => problem.code === 'dependency_cycle');
  if (!cycles.some((problem) => dependenciesChanged(problem.index))) return [...problems];
  return problems.filter((problem) => problem.code !== 'dependency_cycle' || dependenciesChanged(problem.index));
}

function inProgressBesideTheChangedStep<P extends ProblemToPlace>(problems: readonly P[], sent: readonly ProposedPlanItem[], stored: readonly PlanItem[]): P[] {
  const several = problems.filter((problem) => problem.code === 'several_in_progress');
  if (several.length === 0) return [...problems];
  const wasInProgress = (item: ProposedPlanItem) => stored.some((old) => old.id === item.id && old.status === 'in_progress');
  const inProgress = sent.flatMap((item, index) => (item.status === 'in_progress' ? [index] : []));
  const already = inProgress.find((index) => wasInProgress(sent[index]!));
  const changed = inProgress.filter((index) => !wasInProgress(sent[index]!));
  if (already === undefined || changed.length === 0) return [...problems];
  const template = several[0]!;
  const rest = problems.filter((problem) => problem.code !== 'several_in_progress');
  return [
    ...rest,
    ...changed.map((index) => ({
      ...template,
      index,
      params: { ...template.params, item: index + 1, content: sent[index]!.content, other: sent[already]!.content, otherIndex: already },
    })),
  ];
}

/** "Mark the plan done": every item completed, or null when they all are. */
export function completeAll(items: readonly PlanItem[]): Proposal {
  if (items.every((item) => item.status === 'completed')) return null;
  return proposed(items).map((item) => ({ ...item, status: 'completed' }));
}

/**
 * The person's version back where the agent's plan undid it (issue 16.1): a dropped step re-added
 * where it stood, their wording restored, a step they deleted deleted again. Null when the plan
 * already says what they had.
 */
export function undoOverride(items: readonly PlanItem[], override: PlanOverride): Proposal {
  switch (override.kind) {
    case 'dropped': {
      const same = (item: PlanItem) => item.content.trim().toLowerCase() === override.item.content.trim().toLowerCase();
      if (items.some(same)) return null;
      return insertAt(items, { content: override.item.content, status: override.item.status === 'completed' ? 'completed' : 'pending' }, override.index);
    }
    case 'reworded_back':
      return rewordItem(items, override.id, override.yours);
    case 'restored':
      return deleteItem(items, override.item.id);
  }
}

/** Re-adds a deleted step at its old position (clamped): the undo of a delete. */
export function insertAt(items: readonly PlanItem[], step: ProposedPlanItem, index: number): Proposal {
  const list = proposed(items);
  list.splice(Math.max(0, Math.min(list.length, index)), 0, step);
  return list;
}

/**
 * The undo of a delete: the step back at its old position (clamped), waiting for what it waited
 * for, and the steps that waited for it waiting again; steps removed since are left out.
 */
export function restoreDeleted(items: readonly PlanItem[], step: PlanItem, index: number, dependents: readonly string[]): Proposal {
  const present = new Set(items.map((item) => item.id));
  const back: ProposedPlanItem = { ...proposed([step])[0]!, blockedBy: (step.blockedBy ?? []).filter((id) => present.has(id)) };
  const list = proposed(items).map((item) =>
    dependents.includes(item.id ?? '') && !item.blockedBy?.includes(step.id) ? { ...item, blockedBy: [...(item.blockedBy ?? []), step.id] } : item,
  );
  list.splice(Math.max(0, Math.min(list.length, index)), 0, back);
  return list;
}

/** Starts `id` and sets the step that was in progress (`otherId`) back to pending, in one edit. */
export function startInstead(items: readonly PlanItem[], id: string, otherId: string): Proposal {
  if (!items.some((item) => item.id === id)) return null;
  return proposed(items).map((item) =>
    item.id === id ? { ...item, status: 'in_progress' } : item.id === otherId && item.status === 'in_progress' ? { ...item, status: 'pending' } : item,
  );
}
