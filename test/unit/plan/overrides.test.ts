import { describe, expect, it } from 'vitest';
import { findOverrides } from '../../../common/plan/overrides';
import type { PlanItem } from '../../../common/plan/types';
import { runTodoTool } from '../../../main/plan/runTodoTool';
import { PlanStore } from '../../../main/plan/store';

const step = (id: string, content: string, status: PlanItem['status'] = 'pending'): PlanItem => ({ id, content, status });
const before = [step('1', 'Read the code', 'completed'), step('2', 'Write the fix', 'in_progress'), step('3', 'Run the tests')];

describe('findOverrides: what the agent undid of the person’s edit', () => {
  it('reports a step the person added that the agent’s plan dropped, with where it stood', () => {
    const edited = [...before.slice(0, 2), step('4', 'Update the changelog'), before[2]!];
    const next = [step('1', 'Read the code', 'completed'), step('2', 'Write the fix', 'completed'), step('3', 'Run the tests', 'in_progress')];
    expect(findOverrides(before, edited, next)).toEqual([{ kind: 'dropped', item: edited[2], index: 2 }]);
  });

  it('does not report an added step the agent kept, by id or by its text with a new id', () => {
    const edited = [...before, step('4', 'Update the changelog')];
    expect(findOverrides(before, edited, [...before, step('4', 'Update the changelog', 'in_progress')])).toEqual([]);
    expect(findOverrides(before, edited, [...before, step('9', '  update the   changelog')])).toEqual([]);
  });

  it('reports a reworded step whose wording the agent changed back, or changed again', () => {
    const edited = [before[0]!, step('2', 'Write the fix with a test'), before[2]!];
    expect(findOverrides(before, edited, before)).toEqual([{ kind: 'reworded_back', id: '2', yours: 'Write the fix with a test', theirs: 'Write the fix' }]);
    expect(findOverrides(before, edited, [before[0]!, step('2', 'Fix it'), before[2]!])).toEqual([
      { kind: 'reworded_back', id: '2', yours: 'Write the fix with a test', theirs: 'Fix it' },
    ]);
    // Keeping the person's wording (status changes are the agent's to make) is no override.
    expect(findOverrides(before, edited, [before[0]!, step('2', 'Write the fix with a test', 'completed'), before[2]!])).toEqual([]);
  });

  it('reports a step the person deleted that came back, by its old id or by its text', () => {
    const edited = [before[0]!, before[1]!];
    expect(findOverrides(before, edited, before)).toEqual([{ kind: 'restored', item: before[2], deleted: before[2] }]);
    const back = step('7', 'run the tests');
    expect(findOverrides(before, edited, [before[0]!, before[1]!, back])).toEqual([{ kind: 'restored', item: back, deleted: before[2] }]);
  });

  it('leaves the agent free to change what the person did not touch', () => {
    const edited = [before[0]!, step('2', 'Write the fix', 'completed'), before[2]!];
    const next = [step('1', 'Read it all', 'completed'), step('3', 'Run the tests', 'in_progress'), step('5', 'Report')];
    expect(findOverrides(before, edited, next)).toEqual([]);
  });
});

describe('PlanStore: an agent version records the overrides of the person’s last edit', () => {
  it('marks the agent version that dropped, reverted and restored the person’s changes', () => {
    const store = new PlanStore();
    store.propose([{ content: 'Read the code' }, { content: 'Write the fix' }, { content: 'Run the tests' }], { source: 'agent' });
    // The board's edits in a row count as one edit: reword step 2, delete step 3, add a step.
    store.propose(
      store.items.map((item) => (item.id === '2' ? { ...item, content: 'Write the fix with a test' } : item)),
      { source: 'user' },
    );
    store.propose(store.items.slice(0, 2), { source: 'user' });
    store.propose([...store.items, { content: 'Update the changelog' }], { source: 'user' });

    const result = store.propose([{ content: 'Read the code' }, { id: '2', content: 'Write the fix' }, { content: 'Run the tests' }], { source: 'agent' });
    expect(result.ok).toBe(true);
    const kinds = store.current!.overrides!.map((o) => o.kind).sort();
    expect(kinds).toEqual(['dropped', 'restored', 'reworded_back']);

    // The agent's next plan, with nothing of the person's since, carries none.
    store.propose(
      store.items.map((item) => ({ ...item, status: 'completed' })),
      { source: 'agent' },
    );
    expect(store.current!.overrides).toBeUndefined();
  });

  it('a person’s version never carries overrides', () => {
    const store = new PlanStore();
    store.propose([{ content: 'A step' }], { source: 'agent' });
    store.propose([], { source: 'user' });
    expect(store.current!.overrides).toBeUndefined();
  });
});

describe('PlanStore: the person’s edits stay theirs for the whole task', () => {
  const start = () => {
    const store = new PlanStore();
    store.propose([{ content: 'Read the code' }, { content: 'Write the fix' }], { source: 'agent' });
    store.propose([...store.items, { content: 'Update the changelog' }], { source: 'user' });
    return store;
  };

  it('a step the person added, kept by one plan and dropped by the next, is named on the plan that dropped it, once', () => {
    const store = start();
    store.propose([{ content: 'Read the code', status: 'completed' }, { content: 'Write the fix' }, { content: 'Update the changelog' }], { source: 'agent' });
    expect(store.current!.overrides).toBeUndefined();
    const dropped = runTodoTool(
      store,
      {
        items: [
          { content: 'Read the code', status: 'completed' },
          { content: 'Write the fix', status: 'in_progress' },
        ],
      },
      store.version,
    );
    expect(dropped.isError).toBe(false);
    expect(store.current!.overrides).toEqual([{ kind: 'dropped', item: expect.objectContaining({ content: 'Update the changelog' }), index: 2 }]);
    expect(dropped.content).toContain('it removes the person\'s step "Update the changelog"');
    // Left out again: already said (the person may have let it go), not said a second time.
    store.propose(
      [
        { content: 'Read the code', status: 'completed' },
        { content: 'Write the fix', status: 'completed' },
      ],
      { source: 'agent' },
    );
    expect(store.current!.overrides).toBeUndefined();
  });

  it('a wording the person gave and a step they deleted are guarded as long, and a later edit of theirs speaks for them', () => {
    const store = new PlanStore();
    store.propose([{ content: 'Read the code' }, { content: 'Write the fix' }, { content: 'Run the tests' }], { source: 'agent' });
    store.propose(
      store.items.filter((item) => item.id !== '3').map((item) => (item.id === '2' ? { ...item, content: 'Write the fix with a test' } : item)),
      { source: 'user' },
    );
    store.propose([...store.items.map((item) => ({ ...item, status: item.id === '1' ? ('completed' as const) : item.status }))], { source: 'agent' });
    expect(store.current!.overrides).toBeUndefined();
    store.propose([{ id: '1', content: 'Read the code', status: 'completed' }, { id: '2', content: 'Write the fix' }, { content: 'Run the tests' }], {
      source: 'agent',
    });
    expect(store.current!.overrides!.map((o) => o.kind).sort()).toEqual(['restored', 'reworded_back']);
    // The person settles on the agent's wording: from then on that is theirs.
    store.propose(store.items, { source: 'user' });
    store.propose(
      [
        { id: '1', content: 'Read the code', status: 'completed' },
        { id: '2', content: 'Write the fix', status: 'in_progress' },
      ],
      { source: 'agent' },
    );
    expect(store.current!.overrides).toBeUndefined();
  });

  it('once a task is done, the next task’s plan may replace what the person edited in it', () => {
    const store = start();
    store.endTask();
    store.propose([{ content: 'Something else entirely' }], { source: 'agent' });
    expect(store.current!.overrides).toBeUndefined();
  });
});
