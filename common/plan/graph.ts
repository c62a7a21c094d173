import { MAIN_OWNER, type PlanItem } from './types';

/*
 * The plan as a graph: an item waits for the items its `blockedBy` names. Pure questions about a
 * stored (or checked) list, asked by the validator, the rendering, the rules and the board alike.
 */

type GraphItem = Pick<PlanItem, 'id' | 'status' | 'blockedBy'>;

export function ownerOf(item: Pick<PlanItem, 'owner'>): string {
  return item.owner ?? MAIN_OWNER;
}

/** How an item stands: done, being worked, free to start, or waiting for an unfinished item. */
export type Readiness = 'completed' | 'in_progress' | 'ready' | 'blocked';

/** The items `item` waits for that are not completed, in its `blockedBy` order (ids not in `items` are left out). */
export function unfinishedBlockers<T extends GraphItem>(item: GraphItem, items: readonly T[]): T[] {
  if (!item.blockedBy?.length) return [];
  return item.blockedBy.flatMap((id) => {
    const blocker = items.find((other) => other.id === id);
    return blocker && blocker.status !== 'completed' ? [blocker] : [];
  });
}

export function readiness(item: GraphItem, items: readonly GraphItem[]): Readiness {
  if (item.status !== 'pending') return item.status;
  return unfinishedBlockers(item, items).length > 0 ? 'blocked' : 'ready';
}

/** Pending items whose every blocker is completed: what may start now. */
export function readyItems<T extends GraphItem>(items: readonly T[]): T[] {
  return items.filter((item) => readiness(item, items) === 'ready');
}

export function hasDependencies(items: readonly GraphItem[]): boolean {
  return items.some((item) => (item.blockedBy?.length ?? 0) > 0);
}

/**
 * Every knot of items that wait for each other, as one cycle each (a strongly connected component
 * of two or more items, walked by its shortest way round). A cycle is given as ids, starting at
 * its item that comes first in the list, each waiting for the next and the last for the first.
 * Dependencies on the item itself or on ids not in the list are not followed: the validator
 * names those on their own.
 */
export function findCycles(items: readonly Pick<PlanItem, 'id' | 'blockedBy'>[]): string[][] {
  const index = new Map(items.map((item, i) => [item.id, i]));
  const edges = items.map((item, i) => [...new Set(item.blockedBy ?? [])].flatMap((id) => (index.has(id) && index.get(id) !== i ? [index.get(id)!] : [])));
  const cycles: string[][] = [];
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const start = component.reduce((min, i) => Math.min(min, i));
    cycles.push(shortestWayRound(start, edges, members).map((i) => items[i]!.id));
  }
  return cycles.sort((a, b) => index.get(a[0]!)! - index.get(b[0]!)!);
}

/**
 * Whether any items wait for each other in a cycle: a depth-first walk over typed arrays, cheap
 * enough to ask of every proposed plan (the validator names the cycles with findCycles only when
 * there is one). `index` maps each id to its position. Self and unknown dependencies are not followed.
 */
export function hasCycle(items: readonly Pick<PlanItem, 'id' | 'blockedBy'>[], index: ReadonlyMap<string, number>): boolean {
  const count = items.length;
  const state = new Uint8Array(count); // 0 unseen, 1 on the current path, 2 done
  const stack = new Int32Array(count);
  const next = new Int32Array(count);
  for (let root = 0; root < count; root++) {
    if (state[root] !== 0 || !items[root]!.blockedBy?.length) continue;
    let depth = 0;
    stack[0] = root;
    next[0] = 0;
    state[root] = 1;
    while (depth >= 0) {
      const node = stack[depth]!;
      const waitsFor = items[node]!.blockedBy;
      const at = next[depth]!;
      if (waitsFor && at < waitsFor.length) {
        next[depth] = at + 1;
        const target = index.get(waitsFor[at]!);
        if (target === undefined || target === node) continue;
        if (state[target] === 1) return true;
        if (state[target] === 0) {
          state[target] = 1;
          stack[++depth] = target;
          next[depth] = 0;
        }
        continue;
      }
      state[node] = 2;
      depth--;
    }
  }
  return false;
}

/** "#parse → #docs → #tests → #parse": how a cycle is named to the model and the person. */
export function cycleText(cycle: readonly string[]): string {
  return [...cycle, cycle[0]!].map((id) => `#${id}`).join(' → ');
}

/** The same cycle told from `id` on: a refusal beside one step starts at that step. */
export function cycleFrom(cycle: readonly string[], id: string): string[] {
  const at = cycle.indexOf(id);
  return at <= 0 ? [...cycle] : [...cycle.slice(at), ...cycle.slice(0, at)];
}

/** Tarjan's algorithm, without recursion so that no list can exhaust the stack. */
function stronglyConnected(edges: readonly number[][]): number[][] {
  const order = new Array<number>(edges.length).fill(-1);
  const low = new Array<number>(edges.length).fill(0);
  const onStack = new Array<boolean>(edges.length).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let root = 0; root < edges.length; root++) {
    if (order[root] !== -1) continue;
    const work: { node: number; next: number }[] = [{ node: root, next: 0 }];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = edges[frame.node]!;
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (order[target] === -1) {
          order[target] = low[target] = counter++;
          stack.push(target);
          onStack[target] = true;
          work.push({ node: target, next: 0 });
        } else if (onStack[target]) {
          low[frame.node] = Math.min(low[frame.node]!, order[target]!);
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!);
      if (low[frame.node] === order[frame.node]) {
        const component: number[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = false;
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The shortest walk from `start` back to itself inside one component (breadth first). */
function shortestWayRound(start: number, edges: readonly number[][], members: ReadonlySet<number>): number[] {
  const cameFrom = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const target of edges[node]!) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path.at(-1) !== start) path.push(cameFrom.get(path.at(-1)!)!);
        return path.reverse();
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start]; // unreachable for a component of two or more
}
