import { describe, expect, it } from 'vitest';
import { PlanStore } from '../../../main/plan/store';
import { planRecord } from '../../../main/session/planRecords';
import { restorePlanHistory } from '../../../main/session/restorePlan';

describe('plan versions stored as changes', () => {
  it('round-trips rewording, reordering, removing, adding, and dropping an activeForm', () => {
    const store = new PlanStore();
    const records: Record<string, unknown>[] = [];
    store.onChange((version) => records.push(JSON.parse(JSON.stringify(planRecord(version, store.history.at(-2) ?? null))) as Record<string, unknown>));
    store.propose([{ content: 'A', status: 'in_progress', activeForm: 'Doing A' }, { content: 'B' }, { content: 'C' }], { source: 'agent' });
    store.propose(
      [
        { id: '3', content: 'C' },
        { id: '1', content: 'A', status: 'completed' },
        { content: 'D', activeForm: 'Doing D' },
      ],
      { source: 'user' },
    );
    store.propose(
      [
        { id: '3', content: 'C, reworded', status: 'in_progress' },
        { id: '1', content: 'A', status: 'completed' },
        { id: '4', content: 'D' },
      ],
      { source: 'agent' },
    );
    store.propose([], { source: 'agent' });
    store.propose([{ content: 'E' }], { source: 'agent' });

    expect(records[0]).toHaveProperty('items');
    expect(records[2]).toMatchObject({
      base: 2,
      delta: [{ id: '3', content: 'C, reworded', status: 'in_progress' }, { id: '1' }, { id: '4', activeForm: null }],
    });
    const restored = restorePlanHistory(records);
    expect(restored.warnings).toEqual([]);
    expect(restored.history).toEqual(store.history);
  });
});
