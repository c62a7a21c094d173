import { describe, expect, it } from 'vitest';
import { PlanStore } from '../../../main/plan/store';
import { planRecord } from '../../../main/session/planRecords';
import { restorePlanHistory } from '../../../main/session/restorePlan';

function recordedStore(): { store: PlanStore; records: Record<string, unknown>[] } {
  const store = new PlanStore();
  const records: Record<string, unknown>[] = [];
  store.onChange((version) => records.push(JSON.parse(JSON.stringify(planRecord(version, store.history.at(-2) ?? null))) as Record<string, unknown>));
  return { store, records };
}

describe('the plan graph in the transcript', () => {
  it('round-trips dependencies and owners added, changed and removed, each version as its changes', () => {
    const { store, records } = recordedStore();
    const propose = (items: unknown[], source: 'agent' | 'user' = 'agent') => {
      const result = store.propose(items, { source });
      if (!result.ok) throw new Error(result.reason === 'invalid' ? result.error.message : 'conflict');
    };
    propose([
      { id: 'parse', content: 'Parse the input' },
      { id: 'tests', content: 'Write the tests', blockedBy: ['parse'] },
      { id: 'docs', content: 'Write the docs', blockedBy: ['parse', 'tests'], owner: 'helper-1' },
    ]);
    propose(
      [
        { id: 'parse', content: 'Parse the input', status: 'completed' },
        { id: 'tests', content: 'Write the tests', blockedBy: [] },
        { id: 'docs', content: 'Write the docs', blockedBy: ['tests'], owner: null },
      ],
      'user',
    );
    propose([
      { id: 'parse', content: 'Parse the input', status: 'completed' },
      { id: 'tests', content: 'Write the tests', status: 'in_progress', blockedBy: ['parse'] },
      { id: 'docs', content: 'Write the docs' },
    ]);

    expect(records[1]).toMatchObject({
      base: 1,
      delta: [
        { id: 'parse', status: 'completed' },
        { id: 'tests', blockedBy: null },
        { id: 'docs', blockedBy: ['tests'], owner: null },
      ],
    });
    expect(records[2]).toMatchObject({ base: 2, delta: [{ id: 'parse' }, { id: 'tests', status: 'in_progress', blockedBy: ['parse'] }, { id: 'docs' }] });
    const restored = restorePlanHistory(records);
    expect(restored.warnings).toEqual([]);
    expect(restored.history).toEqual(store.history);
    expect(restored.history.at(-1)!.items[2]).toEqual({ id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] });
  });

  it('loads a transcript written before the graph unchanged, its ids of any form included', () => {
    const old = [
      {
        type: 'plan',
        version: 1,
        source: 'agent',
        at: '2025-01-01T00:00:00.000Z',
        items: [
          { id: 'step one', content: 'Read the code', status: 'completed' },
          { id: '2', content: 'Write the fix', status: 'in_progress', activeForm: 'writing the fix' },
          { id: '3', content: 'Run the tests', status: 'pending' },
        ],
      },
      { type: 'plan', version: 2, source: 'user', base: 1, delta: [{ id: 'step one' }, { id: '2', status: 'completed' }, { id: '3', status: 'in_progress' }] },
    ];
    const restored = restorePlanHistory(old);
    expect(restored.warnings).toEqual([]);
    expect(restored.history.map((version) => version.items)).toEqual([
      old[0]!.items,
      [
        { id: 'step one', content: 'Read the code', status: 'completed' },
        { id: '2', content: 'Write the fix', status: 'completed', activeForm: 'writing the fix' },
        { id: '3', content: 'Run the tests', status: 'in_progress' },
      ],
    ]);
  });

  it('skips a stored version whose graph breaks a rule, and says why', () => {
    const restored = restorePlanHistory([
      {
        type: 'plan',
        version: 1,
        source: 'agent',
        items: [
          { id: 'a', content: 'A', status: 'pending', blockedBy: ['b'] },
          { id: 'b', content: 'B', status: 'pending', blockedBy: ['a'] },
        ],
      },
    ]);
    expect(restored.history).toEqual([]);
    expect(restored.warnings).toEqual([expect.stringContaining('#a → #b → #a')]);
  });
});
