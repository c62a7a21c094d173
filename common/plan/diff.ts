import { ownerOf } from './graph';
import { MAIN_OWNER, type PlanItem, type PlanStatus } from './types';

export type PlanChange =
  | { kind: 'added'; item: PlanItem; index: number }
  | { kind: 'removed'; item: PlanItem }
  | { kind: 'reworded'; id: string; from: string; to: string }
  | { kind: 'moved'; item: PlanItem; from: number; to: number }
  | { kind: 'status'; item: PlanItem; from: PlanStatus; to: PlanStatus }
  /** What the item waits for changed: ids it now waits for, and ids it no longer does. */
  | { kind: 'blocked_by'; item: PlanItem; added: string[]; removed: string[] }
  | { kind: 'owner'; item: PlanItem; from: string; to: string };

/**
 * What changed between two versions of a plan, matched by id.
 * A move is reported only for items whose order relative to the other kept items changed,
 * so inserting one step does not report every later step as moved.
 */
export function diffPlans(before: readonly PlanItem[], after: readonly PlanItem[]): PlanChange[] {
  const changes: PlanChange[] = [];
  const beforeById = new Map(before.map((item, index) => [item.id, { item, index }]));
  const afterIds = new Set(after.map((item) => item.id));

  for (const item of before) if (!afterIds.has(item.id)) changes.push({ kind: 'removed', item });

  const kept = after.filter((item) => beforeById.has(item.id));
  const stayed = longestIncreasingRun(kept.map((item) => beforeById.get(item.id)!.index));
  const stayedIds = new Set([...stayed].map((k) => kept[k]!.id));

  after.forEach((item, index) => {
    const old = beforeById.get(item.id);
    if (!old) {
      changes.push({ kind: 'added', item, index });
      return;
    }
    if (old.item.content !== item.content) changes.push({ kind: 'reworded', id: item.id, from: old.item.content, to: item.content });
    if (!stayedIds.has(item.id)) changes.push({ kind: 'moved', item, from: old.index, to: index });
    if (old.item.status !== item.status) changes.push({ kind: 'status', item, from: old.item.status, to: item.status });
    const before = old.item.blockedBy ?? [];
    const now = item.blockedBy ?? [];
    const added = now.filter((id) => !before.includes(id));
    // A step that was removed is no longer waited for; its removal already says so.
    const removed = before.filter((id) => !now.includes(id) && afterIds.has(id));
    if (added.length > 0 || removed.length > 0) changes.push({ kind: 'blocked_by', item, added, removed });
    if (ownerOf(old.item) !== ownerOf(item)) changes.push({ kind: 'owner', item, from: ownerOf(old.item), to: ownerOf(item) });
  });
  return changes;
}

/** Positions (in `values`) of one longest strictly increasing subsequence. */
function longestIncreasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  });
  const run = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) run.add(i);
  return run;
}

/**
 * One line per change, the wording used in `<plan-update>` blocks and the board's history; each
 * names the item's `#id` so the model can match it with the plan it reads.
 */
export function renderPlanChanges(changes: readonly PlanChange[]): string {
  if (changes.length === 0) return '(no change)';
  return changes
    .map((change) => {
      switch (change.kind) {
        case 'added': {
          const waits = change.item.blockedBy?.length ? `, waiting for ${ids(change.item.blockedBy)}` : '';
          return `- added "${change.item.content}" (${change.item.status}) at position ${change.index + 1}, as #${change.item.id}${waits}`;
        }
        case 'removed':
          return `- removed "${change.item.content}" (#${change.item.id})`;
        case 'reworded':
          return `- reworded "${change.from}" to "${change.to}" (#${change.id})`;
        case 'moved':
          return `- moved "${change.item.content}" from position ${change.from + 1} to ${change.to + 1} (#${change.item.id})`;
        case 'status':
          return `- "${change.item.content}": ${change.from} → ${change.to} (#${change.item.id})`;
        case 'blocked_by': {
          const parts = [
            ...(change.added.length > 0 ? [`now waits for ${ids(change.added)}`] : []),
            ...(change.removed.length > 0 ? [`no longer waits for ${ids(change.removed)}`] : []),
          ];
          return `- "${change.item.content}" (#${change.item.id}) ${parts.join(' and ')}`;
        }
        case 'owner':
          return `- "${change.item.content}" (#${change.item.id}): owner ${ownerName(change.from)} → ${ownerName(change.to)}`;
      }
    })
    .join('\n');
}

const ids = (list: readonly string[]) => list.map((id) => `#${id}`).join(', ');
const ownerName = (owner: string) => (owner === MAIN_OWNER ? 'the main agent' : owner);
