import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { PlanItem } from '../../../common/plan/types';
import { validatePlan } from '../../../common/plan/validate';
import { PlanStore } from '../../../main/plan/store';

/*
 * The one validator over random graphs and random edit sequences, from the model and the person
 * alike. The invariants are checked by code of this test's own, not by the graph helpers the
 * validator uses, so that a shared mistake cannot hide.
 */

const IDS = ['a', 'b', 'c', 'd', 'e', 'f', '1', '2', '3'];
const OWNERS = [undefined, undefined, 'main', 'helper-1', 'helper-2', null];

const anyId = fc.oneof(fc.constantFrom(...IDS), fc.constantFrom('#a', 'zz', 'bad id', ''));
const status = fc.oneof(
  { weight: 4, arbitrary: fc.constant('pending') },
  { weight: 3, arbitrary: fc.constant('completed') },
  { weight: 2, arbitrary: fc.constantFrom('in_progress', 'IN_PROGRESS') },
  { weight: 1, arbitrary: fc.constantFrom(undefined, 'done') },
);

/**
 * A list whose items mostly have ids of their own and wait for earlier ones (now and then for a
 * later one, which may close a cycle), with now and then a bad id or field. In half the lists the
 * statuses follow the order, as work does: the first ones completed, one in progress, the rest pending.
 */
const rawPlan = fc.shuffledSubarray(IDS, { maxLength: 8 }).chain((ids) =>
  fc
    .record({
      items: fc.tuple(
        ...ids.map((id, i) =>
          fc.record(
            {
              id: fc.oneof({ weight: 30, arbitrary: fc.constant(id) }, { weight: 1, arbitrary: anyId }),
              content: fc.constantFrom('Parse', 'Test', 'Docs', 'Lint', 'Ship', 'Review'),
              status,
              blockedBy: fc.oneof(
                { weight: 20, arbitrary: i === 0 ? fc.constant([]) : fc.array(dependencyOn(ids.slice(0, i), ids), { maxLength: 2 }) },
                { weight: 1, arbitrary: fc.array(dependencyOn([], ids), { minLength: 1, maxLength: 2 }) },
                { weight: 1, arbitrary: fc.constantFrom(null, 'a', [7.5]) },
              ),
              owner: fc.constantFrom(...OWNERS),
            },
            { requiredKeys: ['content'] },
          ),
        ),
      ),
      orderly: fc.boolean(),
      done: fc.nat(ids.length),
    })
    .map(({ items, orderly, done }) =>
      orderly ? items.map((item, i) => ({ ...item, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' })) : items,
    ),
);

function dependencyOn(earlier: readonly string[], all: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(earlier.length > 0 ? [{ weight: 40, arbitrary: fc.constantFrom(...earlier) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...all) },
    { weight: 1, arbitrary: anyId },
  );
}

/** What a writer does next: a whole new list, or one change to the stored list, as the board and the model make them. */
type Edit =
  | { kind: 'replace'; items: unknown[] }
  | { kind: 'status'; at: number; status: string }
  | { kind: 'depend'; at: number; on: number }
  | { kind: 'undepend'; at: number }
  | { kind: 'delete'; at: number }
  | { kind: 'move'; at: number; to: number }
  | { kind: 'owner'; at: number; owner: string | undefined };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  rawPlan.map((items) => ({ kind: 'replace' as const, items })),
  fc.record({ kind: fc.constant('status' as const), at: fc.nat(9), status: fc.constantFrom('pending', 'in_progress', 'completed') }),
  fc.record({ kind: fc.constant('status' as const), at: fc.nat(9), status: fc.constantFrom('pending', 'in_progress', 'completed') }),
  fc.record({ kind: fc.constant('depend' as const), at: fc.nat(9), on: fc.nat(9) }),
  fc.record({ kind: fc.constant('undepend' as const), at: fc.nat(9) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(9) }),
  fc.record({ kind: fc.constant('move' as const), at: fc.nat(9), to: fc.nat(9) }),
  fc.record({ kind: fc.constant('owner' as const), at: fc.nat(9), owner: fc.constantFrom(undefined, 'helper-1', 'helper-2') }),
);

/** The stored list with one edit applied, as a writer sends it (whole, every item with its id). */
function apply(items: readonly PlanItem[], change: Edit): unknown[] {
  if (change.kind === 'replace') return change.items;
  const list = items.map((item) => ({ ...item, ...(item.blockedBy ? { blockedBy: [...item.blockedBy] } : {}) })) as Record<string, unknown>[];
  if (list.length === 0) return list;
  const at = change.at % list.length;
  const target = list[at]!;
  switch (change.kind) {
    case 'status':
      target.status = change.status;
      break;
    case 'depend':
      target.blockedBy = [...((target.blockedBy as string[] | undefined) ?? []), items[change.on % items.length]!.id];
      break;
    case 'undepend':
      target.blockedBy = ((target.blockedBy as string[] | undefined) ?? []).slice(1);
      break;
    case 'delete':
      list.splice(at, 1);
      break;
    case 'move':
      list.splice(change.to % list.length, 0, ...list.splice(at, 1));
      break;
    case 'owner':
      target.owner = change.owner ?? null;
      break;
  }
  return list;
}

function waitsInACircle(items: readonly PlanItem[]): boolean {
  const byId = new Map(items.map((item) => [item.id, item]));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): boolean => {
    if (state.get(id) === 'open') return true;
    if (state.get(id) === 'done') return false;
    state.set(id, 'open');
    const found = (byId.get(id)?.blockedBy ?? []).some(visit);
    state.set(id, 'done');
    return found;
  };
  return items.some((item) => visit(item.id));
}

/** Every rule of docs/plan-rules.md, "The graph", on a plan as stored. */
function brokenRule(items: readonly PlanItem[]): string | null {
  if (items.length > 12) return 'more than 12 items';
  const ids = items.map((item) => item.id);
  if (new Set(ids).size !== ids.length) return 'two items with one id';
  const byId = new Map(items.map((item) => [item.id, item]));
  for (const item of items) {
    for (const dependency of item.blockedBy ?? []) {
      if (dependency === item.id) return `#${item.id} waits for itself`;
      if (!byId.has(dependency)) return `#${item.id} waits for #${dependency}, not in the plan`;
      if (item.status !== 'pending' && byId.get(dependency)!.status !== 'completed') return `#${item.id} is ${item.status} before #${dependency}`;
    }
    if (item.blockedBy && item.blockedBy.length === 0) return `#${item.id} stores an empty blockedBy`;
    if (item.owner === 'main') return `#${item.id} stores the main agent as its owner`;
  }
  if (waitsInACircle(items)) return 'a cycle';
  const started = new Map<string, number>();
  for (const item of items) {
    if (item.status !== 'in_progress') continue;
    const owner = item.owner ?? 'main';
    started.set(owner, (started.get(owner) ?? 0) + 1);
    if (started.get(owner)! > 1) return `two items in progress for ${owner}`;
  }
  return null;
}

describe('the validator over random graphs', () => {
  it('accepts only plans that keep every rule, and accepts the plan it stored again unchanged', () => {
    let accepted = 0;
    let withDependencies = 0;
    fc.assert(
      fc.property(rawPlan, (proposed) => {
        const result = validatePlan(proposed);
        if (!result.ok) {
          expect(result.error.problems.length).toBeGreaterThan(0);
          return;
        }
        accepted++;
        if (result.items.some((item) => item.blockedBy?.length)) withDependencies++;
        expect(brokenRule(result.items)).toBeNull();
        // What is stored reads back the same: a restored transcript, and a writer re-sending the plan.
        expect(validatePlan(result.items, [], { stored: true })).toEqual({ ok: true, items: result.items });
        expect(validatePlan(result.items, result.items)).toEqual({ ok: true, items: result.items });
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(300);
    expect(withDependencies).toBeGreaterThan(100);
  });

  it('refuses every plan that breaks a rule, with at least one problem naming an item or the list', () => {
    fc.assert(
      fc.property(rawPlan, (proposed) => {
        const result = validatePlan(proposed);
        if (result.ok) return;
        for (const problem of result.error.problems) {
          expect(problem.index === null || (problem.index >= 0 && problem.index < proposed.length)).toBe(true);
          expect(result.error.message).toContain(problem.message);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

const seed = [
  { id: 'a', content: 'Parse' },
  { id: 'b', content: 'Test', blockedBy: ['a'] },
  { id: 'c', content: 'Docs', blockedBy: ['a', 'b'] },
  { id: 'd', content: 'Lint', owner: 'helper-1' },
  { id: 'e', content: 'Review', owner: 'helper-1' },
];

describe('the store over random edit sequences from the model and the person', () => {
  it('never stores a plan that breaks a rule, and a refusal leaves the plan as it was', () => {
    const seen = { stored: 0, withDependencies: 0, refused: 0 };
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(edit, fc.constantFrom('agent' as const, 'user' as const)), { minLength: 1, maxLength: 30 }),
        (seeded, edits) => {
          const store = new PlanStore();
          if (seeded) store.propose(seed, { source: 'agent' });
          for (const [change, source] of edits) {
            const before = structuredClone(store.history);
            const result = store.propose(apply(store.items, change), { source, ...(source === 'user' ? { baseVersion: store.version } : {}) });
            if (result.ok) {
              seen.stored++;
              if (store.items.some((item) => item.blockedBy?.length)) seen.withDependencies++;
              expect(brokenRule(store.items)).toBeNull();
              expect(store.history).toHaveLength(before.length + 1);
            } else {
              seen.refused++;
              expect(store.history).toEqual(before);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
    // The invariants were met on real graphs, not on a run of refusals.
    expect(seen.stored).toBeGreaterThan(1000);
    expect(seen.withDependencies).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(200);
  });
});
