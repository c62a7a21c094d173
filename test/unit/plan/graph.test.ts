import { describe, expect, it } from 'vitest';

import { diffPlans, renderPlanChanges } from '../../../common/plan/diff';
import { findCycles, readiness, readyItems } from '../../../common/plan/graph';
import { renderPlan } from '../../../common/plan/render';
import type { PlanItem } from '../../../common/plan/types';
import { validatePlan, type PlanProblem, type PlanValidation } from '../../../common/plan/validate';

function accepted(result: PlanValidation): PlanItem[] {
  if (!result.ok) throw new Error(`expected the plan to be accepted, got: ${result.error.message}`);
  return result.items;
}

function refused(result: PlanValidation): { message: string; problems: PlanProblem[] } {
  if (result.ok) throw new Error(`expected the plan to be refused, got: ${JSON.stringify(result.items)}`);
  return result.error;
}

/** Parse first; the tests after it; the docs after both. */
const graph = [
  { id: 'parse', content: 'Parse the input', status: 'pending' },
  { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] },
  { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['parse', 'tests'] },
];

describe('items with ids of their own that name each other', () => {
  it('stores the ids the writer gave and what each item waits for', () => {
    expect(accepted(validatePlan(graph))).toEqual([
      { id: 'parse', content: 'Parse the input', status: 'pending' },
      { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] },
      { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['parse', 'tests'] },
    ]);
  });

  it('takes ids as the model reads them, with their #, and says a repeated dependency once', () => {
    const items = accepted(validatePlan([graph[0], { ...graph[1], id: '#tests', blockedBy: ['#parse', 'parse'] }]));
    expect(items[1]).toEqual({ id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] });
  });

  it('lets an item wait for one whose id Keel gave', () => {
    const first = accepted(validatePlan([{ content: 'Parse the input' }]));
    expect(first[0]!.id).toBe('1');
    expect(accepted(validatePlan([...first, { content: 'Write the tests', blockedBy: ['1'] }], first))[1]!.blockedBy).toEqual(['1']);
  });

  it('refuses an id that is not short: letters, digits and - only', () => {
    const { problems } = refused(validatePlan([{ id: 'write tests', content: 'Write the tests' }]));
    expect(problems).toEqual([expect.objectContaining({ index: 0, code: 'id_invalid', params: { item: 1, got: '"write tests"' } })]);
    expect(refused(validatePlan([{ id: 'x'.repeat(33), content: 'A' }])).problems[0]!.code).toBe('id_invalid');
    expect(accepted(validatePlan([{ id: 'x'.repeat(32), content: 'A' }]))[0]!.id).toHaveLength(32);
  });

  it('keeps an id of the stored plan that has no short form, so plans saved before go on working', () => {
    const stored: PlanItem[] = [{ id: 'step one', content: 'Read the code', status: 'pending' }];
    expect(accepted(validatePlan([{ id: 'step one', content: 'Read the code', status: 'completed' }], stored))[0]!.id).toBe('step one');
    expect(accepted(validatePlan(stored, [], { stored: true }))[0]!.id).toBe('step one');
  });

  it('refuses a blockedBy that is not a list of ids', () => {
    for (const blockedBy of ['parse', [true], [''], { parse: true }]) {
      const { problems } = refused(validatePlan([graph[0], { ...graph[1], blockedBy }]));
      expect(problems).toEqual([expect.objectContaining({ index: 1, code: 'blocked_by_invalid' })]);
    }
  });

  it('takes null or [] as waiting for nothing', () => {
    expect(accepted(validatePlan([graph[0], { ...graph[1], blockedBy: null }]))[1]).not.toHaveProperty('blockedBy');
    expect(accepted(validatePlan([graph[0], { ...graph[1], blockedBy: [] }]))[1]).not.toHaveProperty('blockedBy');
  });
});

describe('the graph rules, each refusal naming the items', () => {
  it('refuses a dependency on an id that is not in the plan', () => {
    const { message, problems } = refused(validatePlan([graph[0], { ...graph[1], blockedBy: ['lint'] }]));
    expect(message).toContain('#tests ("Write the tests") waits for #lint, which is not in the plan');
    expect(problems).toEqual([
      expect.objectContaining({ index: 1, code: 'blocked_by_unknown', params: { item: 2, id: 'tests', content: 'Write the tests', dependency: 'lint' } }),
    ]);
  });

  it('refuses an item that waits for itself', () => {
    const { message, problems } = refused(validatePlan([graph[0], { ...graph[1], blockedBy: ['tests'] }]));
    expect(message).toContain('#tests ("Write the tests") waits for itself');
    expect(problems.map((p) => [p.index, p.code])).toEqual([[1, 'blocked_by_self']]);
  });

  it('refuses a cycle and names it: #parse → #docs → #tests → #parse', () => {
    const cyclic = [{ ...graph[0], blockedBy: ['docs'] }, { ...graph[1] }, { ...graph[2], blockedBy: ['tests'] }];
    const { message, problems } = refused(validatePlan(cyclic));
    expect(message).toContain('#parse → #docs → #tests → #parse');
    expect(message.match(/cycle/g)).toHaveLength(1);
    // One problem beside each step of the cycle, each told from that step.
    expect(problems.map((p) => [p.index, p.code, p.params.cycle])).toEqual([
      [0, 'dependency_cycle', '#parse → #docs → #tests → #parse'],
      [2, 'dependency_cycle', '#docs → #tests → #parse → #docs'],
      [1, 'dependency_cycle', '#tests → #parse → #docs → #tests'],
    ]);
  });

  it('refuses two items that wait for each other', () => {
    const { message } = refused(validatePlan([{ ...graph[0], blockedBy: ['tests'] }, graph[1]]));
    expect(message).toContain('#parse and #tests wait for each other in a cycle: #parse → #tests → #parse');
  });

  it('refuses starting an item whose blocker is pending: "#tests waits for #parse, which is pending"', () => {
    const { message, problems } = refused(validatePlan([graph[0], { ...graph[1], status: 'in_progress' }, graph[2]]));
    expect(message).toContain('#tests waits for #parse, which is pending');
    expect(problems).toEqual([
      expect.objectContaining({
        index: 1,
        code: 'blocked_by_unfinished',
        params: expect.objectContaining({ id: 'tests', dependency: 'parse', blocker: 'Parse the input', blockerStatus: 'pending', otherIndex: 0 }),
      }),
    ]);
  });

  it('refuses completing an item while what it waits for is still in progress', () => {
    const { message } = refused(validatePlan([{ ...graph[0], status: 'in_progress' }, { ...graph[1], status: 'completed' }, graph[2]]));
    expect(message).toContain('#tests waits for #parse, which is in_progress: "Write the tests" cannot be completed before "Parse the input" is completed');
  });

  it('accepts a step forward: the blocker completed, the next item started', () => {
    const items = accepted(validatePlan([{ ...graph[0], status: 'completed' }, { ...graph[1], status: 'in_progress' }, graph[2]]));
    expect(items.map((item) => item.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('keeps one item in progress per owner, and lets two owners work at once', () => {
    const two = [
      { id: 'a', content: 'A', status: 'in_progress' },
      { id: 'b', content: 'B', status: 'in_progress', owner: 'helper-1' },
    ];
    expect(accepted(validatePlan(two)).map((item) => item.owner)).toEqual([undefined, 'helper-1']);
    const { message, problems } = refused(validatePlan([...two, { id: 'c', content: 'C', status: 'in_progress', owner: 'helper-1' }]));
    expect(message).toContain('Only one item can be in_progress per agent, but helper-1 has 2: item 2 ("B"), item 3 ("C")');
    expect(problems).toEqual([
      expect.objectContaining({ index: 2, code: 'several_in_progress', params: expect.objectContaining({ owner: 'helper-1', otherIndex: 1 }) }),
    ]);
  });

  it('refuses an owner that is not an agent name, and stores the main agent as no owner', () => {
    expect(refused(validatePlan([{ content: 'A', owner: 'a helper' }])).problems[0]!.code).toBe('owner_invalid');
    expect(accepted(validatePlan([{ content: 'A', owner: 'main' }]))[0]).not.toHaveProperty('owner');
  });

  it('reports every graph problem of a list at once', () => {
    const { problems } = refused(
      validatePlan([
        { id: 'a', content: 'A', blockedBy: ['a', 'zz'] },
        { id: 'b', content: 'B', blockedBy: ['c'] },
        { id: 'c', content: 'C', blockedBy: ['b'] },
        { id: 'd', content: 'D', status: 'completed', blockedBy: ['a'] },
      ]),
    );
    expect(problems.map((p) => p.code).sort()).toEqual([
      'blocked_by_self',
      'blocked_by_unfinished',
      'blocked_by_unknown',
      'dependency_cycle',
      'dependency_cycle',
    ]);
  });
});

describe('a rewrite that leaves the graph out', () => {
  const stored = accepted(validatePlan([{ ...graph[0], owner: 'helper-1' }, graph[1], graph[2]]));

  it('keeps what an item waits for, and its owner, when it names its id and leaves them out', () => {
    const items = accepted(
      validatePlan([{ id: 'parse', content: 'Parse the input', status: 'completed' }, { id: 'tests', content: 'Write the tests' }, graph[2]], stored),
    );
    expect(items[0]!.owner).toBe('helper-1');
    expect(items[1]!.blockedBy).toEqual(['parse']);
  });

  it('keeps them for an item with the same text and no id', () => {
    const items = accepted(validatePlan([{ content: 'Parse the input' }, { content: 'write the  tests' }, { content: 'Write the docs' }], stored));
    expect(items.map((item) => item.blockedBy)).toEqual([undefined, ['parse'], ['parse', 'tests']]);
  });

  it('does not keep them for a reworded step matched only by where it stands', () => {
    const items = accepted(validatePlan([{ content: 'Parse the input' }, { content: 'Check the parser by hand' }, { content: 'Write the docs' }], stored));
    expect(items[1]).toEqual({ id: 'tests', content: 'Check the parser by hand', status: 'pending' });
  });

  it('drops a kept dependency on a step that was removed', () => {
    const items = accepted(
      validatePlan(
        [
          { id: 'tests', content: 'Write the tests' },
          { id: 'docs', content: 'Write the docs' },
        ],
        stored,
      ),
    );
    expect(items.map((item) => item.blockedBy)).toEqual([undefined, ['tests']]);
  });

  it('clears them when given: blockedBy [] and owner null', () => {
    const items = accepted(
      validatePlan([{ id: 'parse', content: 'Parse the input', owner: null }, { id: 'tests', content: 'Write the tests', blockedBy: [] }, graph[2]], stored),
    );
    expect(items[0]).not.toHaveProperty('owner');
    expect(items[1]).not.toHaveProperty('blockedBy');
  });

  it('refuses an explicit dependency on a step that was removed', () => {
    const { message } = refused(validatePlan([graph[1]], stored));
    expect(message).toContain('#tests ("Write the tests") waits for #parse, which is not in the plan');
  });

  it('reads a stored version as stored: a field an item lacks is absent, not kept', () => {
    const items = accepted(
      validatePlan(
        [
          { id: 'parse', content: 'Parse the input', status: 'pending' },
          { id: 'tests', content: 'Write the tests', status: 'pending' },
        ],
        stored,
        { stored: true },
      ),
    );
    expect(items).toEqual([
      { id: 'parse', content: 'Parse the input', status: 'pending' },
      { id: 'tests', content: 'Write the tests', status: 'pending' },
    ]);
  });
});

describe('the graph as the model reads it', () => {
  const items = accepted(
    validatePlan([
      { id: 'parse', content: 'Parse the input', status: 'completed' },
      { id: 'tests', content: 'Write the tests', status: 'in_progress', activeForm: 'writing the tests', blockedBy: ['parse'] },
      { id: 'docs', content: 'Write the docs', blockedBy: ['parse', 'tests'] },
      { id: 'lint', content: 'Run the linter', owner: 'helper-1' },
    ]),
  );

  it('shows each #id, what blocks an item, what it came after, its owner and what is ready', () => {
    expect(renderPlan(items)).toBe(
      [
        '[x] #parse Parse the input',
        '[>] #tests Write the tests (writing the tests; after #parse)',
        '[ ] #docs Write the docs (blocked by #tests; after #parse)',
        '[ ] #lint Run the linter (owner: helper-1)',
        '',
        '(1/4 completed; ready to start: #lint)',
      ].join('\n'),
    );
  });

  it('renders the line of the issue: [ ] #tests Write the tests (blocked by #parse)', () => {
    expect(renderPlan(accepted(validatePlan(graph)))).toContain('[ ] #tests Write the tests (blocked by #parse)\n');
  });

  it('says which items are ready and which blocked', () => {
    expect(readyItems(items).map((item) => item.id)).toEqual(['lint']);
    expect(items.map((item) => readiness(item, items))).toEqual(['completed', 'in_progress', 'blocked', 'ready']);
  });
});

describe('dependency changes in the diff the model is told', () => {
  const before = accepted(validatePlan(graph));

  it('reports a dependency added and one removed, by id', () => {
    const after = accepted(
      validatePlan([graph[0], { ...graph[1], blockedBy: [] }, { ...graph[2], blockedBy: ['tests', 'lint'] }, { id: 'lint', content: 'Lint' }]),
    );
    const changes = diffPlans(before, after);
    expect(changes.filter((c) => c.kind === 'blocked_by')).toEqual([
      { kind: 'blocked_by', item: after[1], added: [], removed: ['parse'] },
      { kind: 'blocked_by', item: after[2], added: ['lint'], removed: ['parse'] },
    ]);
    expect(renderPlanChanges(changes)).toContain('- "Write the tests" (#tests) no longer waits for #parse');
    expect(renderPlanChanges(changes)).toContain('- "Write the docs" (#docs) now waits for #lint and no longer waits for #parse');
  });

  it('names an added item with its id and what it waits for', () => {
    const after = accepted(validatePlan([...graph, { id: 'ship', content: 'Ship it', blockedBy: ['docs'] }]));
    expect(renderPlanChanges(diffPlans(before, after))).toBe('- added "Ship it" (pending) at position 4, as #ship, waiting for #docs');
  });

  it('reports a change of owner', () => {
    const after = accepted(validatePlan([{ ...graph[0], owner: 'helper-1' }, graph[1], graph[2]]));
    expect(renderPlanChanges(diffPlans(before, after))).toBe('- "Parse the input" (#parse): owner the main agent → helper-1');
  });

  it('says nothing of dependencies on a removed step beyond its removal', () => {
    const after = accepted(
      validatePlan(
        [
          { id: 'tests', content: 'Write the tests' },
          { id: 'docs', content: 'Write the docs' },
        ],
        before,
      ),
    );
    expect(renderPlanChanges(diffPlans(before, after))).toBe('- removed "Parse the input" (#parse)');
  });
});

describe('findCycles', () => {
  it('finds each knot once, by its shortest way round, from its first item', () => {
    const items = [
      { id: 'a', blockedBy: ['b'] },
      { id: 'b', blockedBy: ['c', 'a'] },
      { id: 'c', blockedBy: ['a'] },
      { id: 'd', blockedBy: ['e'] },
      { id: 'e', blockedBy: ['d', 'e', 'nowhere'] },
    ];
    expect(findCycles(items)).toEqual([
      ['a', 'b'],
      ['d', 'e'],
    ]);
  });

  it('walks a long chain without recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i), blockedBy: [String((i + 1) % 20_000)] }));
    expect(findCycles(chain)[0]).toHaveLength(20_000);
  });
});
