import { cycleFrom, cycleText, findCycles, hasCycle, ownerOf } from './graph';
import type { PlanProblem } from './problems';
import { MAIN_OWNER, type PlanItem } from './types';

/**
 * The rules between items (docs/plan-rules.md, "The graph"), judged on the list as it would be
 * stored: what each item waits for must be another item of the list, no items may wait for each
 * other in a cycle, an item is started or completed only once all it waits for is completed, and
 * each owner has at most one item in progress. `explicit[i]` is the blockedBy item i was sent with
 * (what it kept from the stored step was already narrowed to the items still in the list).
 */
export function checkGraph(items: readonly PlanItem[], explicit: readonly (readonly string[] | undefined)[]): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const index = new Map(items.map((item, i) => [item.id, i]));

  explicit.forEach((waitsFor, i) => {
    if (!waitsFor) return;
    const item = items[i]!;
    for (const id of waitsFor) {
      if (id === item.id) {
        problems.push({
          index: i,
          code: 'blocked_by_self',
          params: { item: i + 1, id: item.id, content: item.content },
          message: `${label(item)} waits for itself. Take "${id}" out of its blockedBy.`,
        });
      } else if (!index.has(id)) {
        problems.push({
          index: i,
          code: 'blocked_by_unknown',
          params: { item: i + 1, id: item.id, content: item.content, dependency: id },
          message: `${label(item)} waits for #${id}, which is not in the plan. Use the id of an item of this list (shown as #id), give the new item the id "${id}", or take "${id}" out of blockedBy.`,
        });
      }
    }
  });

  const inCycle = new Set<string>();
  const waits = explicit.some((waitsFor) => waitsFor !== undefined && waitsFor.length > 0) || items.some((item) => item.blockedBy !== undefined);
  for (const cycle of waits && hasCycle(items, index) ? findCycles(items) : []) {
    const names = cycle.map((id) => `#${id}`);
    const who = names.length === 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    const message = `${who} wait for each other in a cycle: ${cycleText(cycle)} (each waits for the next), so none of them could ever start. Take one of these dependencies out.`;
    for (const id of cycle) {
      inCycle.add(id);
      const i = index.get(id)!;
      problems.push({
        index: i,
        code: 'dependency_cycle',
        params: { item: i + 1, id, content: items[i]!.content, cycle: cycleText(cycleFrom(cycle, id)), count: cycle.length },
        message,
      });
    }
  }

  items.forEach((item, i) => {
    if (item.status === 'pending' || !item.blockedBy || inCycle.has(item.id)) return;
    for (const id of item.blockedBy) {
      const at = index.get(id);
      const blocker = at === undefined || at === i ? undefined : items[at];
      if (!blocker || blocker.status === 'completed') continue;
      const state = item.status === 'in_progress' ? 'in_progress' : 'completed';
      problems.push({
        index: i,
        code: 'blocked_by_unfinished',
        params: {
          item: i + 1,
          id: item.id,
          content: item.content,
          status: item.status,
          dependency: id,
          blocker: blocker.content,
          blockerStatus: blocker.status,
          otherIndex: at!,
        },
        message:
          `#${item.id} waits for #${id}, which is ${blocker.status}: "${item.content}" cannot be ${state} before "${blocker.content}" is completed. ` +
          `Complete #${id} first, or take "${id}" out of its blockedBy.`,
      });
    }
  });

  problems.push(...severalInProgress(items));
  return problems;
}

type Started = Pick<PlanItem, 'content' | 'status' | 'owner'> | null;

/**
 * At most one item in progress per owner: each agent works one step at a time. Asked on its own
 * too, of the well-formed items of a list that has other problems (`null` for the others).
 */
export function severalInProgress(items: readonly Started[]): PlanProblem[] {
  const problems: PlanProblem[] = [];
  let inProgress = 0;
  for (const item of items) if (item?.status === 'in_progress') inProgress++;
  if (inProgress < 2) return problems;
  const byOwner = new Map<string, number[]>();
  items.forEach((item, i) => {
    if (item?.status !== 'in_progress') return;
    const owner = ownerOf(item);
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), i]);
  });
  const owners = new Set(items.flatMap((item) => (item ? [ownerOf(item)] : [])));
  for (const [owner, started] of byOwner) {
    if (started.length < 2) continue;
    const names = started.map((i) => `item ${i + 1} ("${items[i]!.content}")`).join(', ');
    // A plan only the main agent works reads as it always has; with helpers, the rule is per agent.
    const opening =
      owners.size === 1 && owner === MAIN_OWNER
        ? `Only one item can be in_progress, but ${started.length} are`
        : `Only one item can be in_progress per agent, but ${owner === MAIN_OWNER ? 'the main agent' : owner} has ${started.length}`;
    const first = started[0]!;
    for (const i of started.slice(1)) {
      problems.push({
        index: i,
        code: 'several_in_progress',
        params: { item: i + 1, content: items[i]!.content, other: items[first]!.content, otherIndex: first, count: started.length, owner },
        message: `${opening}: ${names}. Mark the others pending or completed first.`,
      });
    }
  }
  return problems;
}

function label(item: PlanItem): string {
  return `#${item.id} ("${item.content}")`;
}
