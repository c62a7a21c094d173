import type { CheckedItem } from './checkItem';
import type { PlanItem } from './types';

/** The id an item is stored under, and the stored item it is the same step as (named by id, or of the same text). */
export interface AssignedId {
  id: string;
  same: PlanItem | undefined;
}

/**
 * Keeps ids stable so a rewrite can be described as a diff: an item keeps its id when it names it,
 * else when its text matches an unclaimed previous item, else when it stands where an unclaimed
 * previous item stood (a reworded step). Anything left gets a fresh number no item of the plan's
 * history (`usedIds`) carried.
 */
export function assignIds(items: readonly CheckedItem[], previous: readonly PlanItem[], usedIds: Iterable<string>): AssignedId[] {
  const claimed = new Set<string>();
  const assigned: (AssignedId | undefined)[] = [];
  let missing = false;
  items.forEach((item, i) => {
    if (!item.id) {
      assigned.push(undefined);
      missing = true;
      return;
    }
    claimed.add(item.id);
    // Most writers send the stored list back in its order: look where the item stood first.
    const same = previous[i]?.id === item.id ? previous[i] : previous.find((old) => old.id === item.id);
    assigned.push({ id: item.id, same });
  });
  // Every item named its id (the board always does; models mostly do).
  if (!missing) return assigned as AssignedId[];
  return assignMissing(items, previous, usedIds, claimed, assigned);
}

function assignMissing(
  items: readonly CheckedItem[],
  previous: readonly PlanItem[],
  usedIds: Iterable<string>,
  claimed: Set<string>,
  assigned: (AssignedId | undefined)[],
): AssignedId[] {
  const previousKeys = previous.map((old) => normaliseText(old.content));
  const byContent = (i: number) => {
    const key = normaliseText(items[i]!.content);
    return previous.find((old, at) => !claimed.has(old.id) && previousKeys[at] === key);
  };
  const byPosition = (i: number) => {
    const old = previous[i];
    return old && !claimed.has(old.id) ? old : undefined;
  };
  const match = (find: (i: number) => PlanItem | undefined, same: boolean) =>
    assigned.forEach((found, i) => {
      if (found) return;
      const old = find(i);
      if (!old) return;
      // A step matched by where it stands is a guess (a reworded step): it keeps the id, not what the old one waited for.
      assigned[i] = { id: old.id, same: same ? old : undefined };
      claimed.add(old.id);
    });
  match(byContent, true);
  match(byPosition, false);

  const known = [...previous.map((p) => p.id), ...claimed, ...usedIds];
  // reduce, not Math.max(...): a long session's history can hold more ids than a call may take arguments.
  let next = 1 + known.reduce((max, id) => (/^\d+$/.test(id) ? Math.max(max, Number(id)) : max), 0);
  return assigned.map((found) => {
    if (found) return found;
    while (claimed.has(String(next))) next++;
    const id = String(next++);
    claimed.add(id);
    return { id, same: undefined };
  });
}

function normaliseText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
