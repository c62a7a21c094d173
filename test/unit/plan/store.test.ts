import { describe, it, expect, vi } from 'vitest';

import type { PlanChange } from '../../../common/plan/diff';
import type { PlanVersion } from '../../../common/plan/types';
import { PlanStore } from '../../../main/plan/store';

const fixedClock = () => new Date('2025-01-02T03:04:05.000Z');
const three = [{ content: 'Read the code' }, { content: 'Write the fix' }, { content: 'Run the tests' }];

function storeWithPlan(): PlanStore {
  const store = new PlanStore([], fixedClock);
  const result = store.propose(three, { source: 'agent' });
  if (!result.ok) throw new Error('setup plan refused');
  return store;
}

describe('versions', () => {
  it('starts empty at version 0', () => {
    const store = new PlanStore();
    expect(store.version).toBe(0);
    expect(store.current).toBeNull();
    expect(store.items).toEqual([]);
  });

  it('numbers each accepted change one higher and records its source and time', () => {
    const store = storeWithPlan();
    const result = store.propose([...store.items, { content: 'Report' }], { source: 'user' });
    expect(result.ok).toBe(true);
    expect(store.history.map((v) => [v.version, v.source])).toEqual([
      [1, 'agent'],
      [2, 'user'],
    ]);
    expect(store.current?.at).toBe('2025-01-02T03:04:05.000Z');
    expect(store.getVersion(1)?.items).toHaveLength(3);
    expect(store.getVersion(9)).toBeNull();
  });

  it('continues numbering from a restored history', () => {
    const history: PlanVersion[] = [{ version: 7, source: 'user', items: [{ id: '1', content: 'A', status: 'pending' }], at: '' }];
    const store = new PlanStore(history);
    const result = store.propose([{ content: 'A', status: 'completed' }], { source: 'agent' });
    expect(result.ok && result.version.version).toBe(8);
    expect(store.items[0]!.id).toBe('1');
  });
});

describe('conflicts and refusals', () => {
  it('refuses an edit made against an older version and leaves the plan unchanged', () => {
    const store = storeWithPlan();
    store.propose([{ content: 'Read the code', status: 'completed' }, ...three.slice(1)], { source: 'agent', baseVersion: 1 });
    const before = store.current;
    const result = store.propose([{ content: 'Something else' }], { source: 'user', baseVersion: 1 });
    expect(result).toEqual({ ok: false, reason: 'conflict', current: before });
    expect(store.version).toBe(2);
    expect(store.current).toBe(before);
  });

  it('accepts an edit made against the current version', () => {
    const store = storeWithPlan();
    expect(store.propose([{ content: 'Only step' }], { source: 'user', baseVersion: 1 }).ok).toBe(true);
  });

  it('leaves the plan unchanged and tells no listener when the proposal is invalid', () => {
    const store = storeWithPlan();
    const heard: number[] = [];
    store.onChange((v) => heard.push(v.version));
    const before = store.current;
    const result = store.propose([{ content: 'A', status: 'done' }], { source: 'agent' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason === 'invalid' && result.error.message).toContain('status "done"');
    expect(store.current).toBe(before);
    expect(store.history).toHaveLength(1);
    expect(heard).toEqual([]);
  });
});

describe('onChange', () => {
  it('tells listeners of each new version with the diff, until unsubscribed', () => {
    const store = storeWithPlan();
    const heard: [number, PlanChange[]][] = [];
    const stop = store.onChange((version, changes) => heard.push([version.version, changes]));
    const first = store.items;
    store.propose([{ content: 'Read the code', status: 'completed' }, ...three.slice(1)], { source: 'user' });
    expect(heard).toEqual([[2, [{ kind: 'status', item: store.items[0], from: 'pending', to: 'completed' }]]]);
    expect(store.items[0]!.id).toBe(first[0]!.id);
    stop();
    store.propose([], { source: 'user' });
    expect(heard).toHaveLength(1);
  });

  it('a listener that throws (the transcript write on a full disk) stops neither the others nor the edit', () => {
    const store = storeWithPlan();
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      store.onChange(() => {
        throw new Error('ENOSPC: no space left on device');
      });
      const changed: number[] = [];
      store.onChange((version) => changed.push(version.version));
      const result = store.propose([{ content: 'Only step' }], { source: 'user' });
      expect(result.ok).toBe(true);
      expect(store.version).toBe(2);
      // plan.changed still goes out: the board shows the edit the agent will see.
      expect(changed).toEqual([2]);
      expect(String(reported.mock.calls.flat())).toContain('ENOSPC');
    } finally {
      reported.mockRestore();
    }
  });
});

describe('rounds since the last update', () => {
  it('counts rounds without todo and resets on a round that calls todo', () => {
    const store = storeWithPlan();
    store.recordRound(false);
    store.recordRound(false);
    expect(store.roundsSinceUpdate).toBe(2);
    store.recordRound(true);
    expect(store.roundsSinceUpdate).toBe(0);
  });

  it('resets when the agent updates the plan, but not on a user edit until it is shown', () => {
    const store = storeWithPlan();
    store.recordRound(false);
    store.recordRound(false);
    store.propose(three.slice(0, 2), { source: 'user' });
    expect(store.roundsSinceUpdate).toBe(2);
    store.resetStaleRounds();
    expect(store.roundsSinceUpdate).toBe(0);
    store.recordRound(false);
    store.propose(three, { source: 'agent' });
    expect(store.roundsSinceUpdate).toBe(0);
  });

  it('does not reset on a refused agent proposal', () => {
    const store = storeWithPlan();
    store.recordRound(false);
    store.propose('not a list', { source: 'agent' });
    expect(store.roundsSinceUpdate).toBe(1);
  });
});

describe('changesSince', () => {
  it('diffs from an earlier version, or from the empty plan for 0', () => {
    const store = storeWithPlan();
    store.propose([...store.items, { content: 'Report' }], { source: 'user' });
    expect(store.changesSince(1).map((c) => c.kind)).toEqual(['added']);
    expect(store.changesSince(0).map((c) => c.kind)).toEqual(['added', 'added', 'added', 'added']);
    expect(store.changesSince(2)).toEqual([]);
  });

  it('reports a deleted step and a later new step as a removal and an addition, not a rewording', () => {
    const store = storeWithPlan();
    const [read, write] = store.items;
    // The person deletes the last step, then, in a second edit, adds a new first step.
    store.propose([read, write], { source: 'user' });
    store.propose([{ content: 'Make a branch' }, read, write], { source: 'user' });
    const changes = store.changesSince(1);
    expect(changes.map((c) => c.kind).sort()).toEqual(['added', 'removed']);
    expect(changes).toContainEqual({ kind: 'removed', item: expect.objectContaining({ content: 'Run the tests' }) });
  });
});

describe('userEditsSince', () => {
  it("is null while the model has seen every person's edit, and their changes once it has not", () => {
    const store = storeWithPlan();
    expect(store.userEditsSince(1)).toBeNull();
    store.propose([...store.items, { content: 'Report' }], { source: 'user' });
    expect(store.userEditsSince(1)?.map((c) => c.kind)).toEqual(['added']);
    expect(store.userEditsSince(2)).toBeNull();
    // An agent version after the person's edit does not hide it from a model that saw neither.
    store.propose(store.items, { source: 'agent' });
    expect(store.userEditsSince(1)?.map((c) => c.kind)).toEqual(['added']);
    expect(store.userEditsSince(3)).toBeNull();
  });
});
