import { describe, expect, it } from 'vitest';
import { takeReminder, takeUserPlanUpdate } from '../../../main/agent/planMessages';
import { createTodoTool } from '../../../main/agent/sessionTodoTool';
import { PlanView } from '../../../main/plan/planView';
import { PlanStore } from '../../../main/plan/store';

const three = [{ content: 'Read the code' }, { content: 'Write the fix' }, { content: 'Run the tests' }];
const context = { workspace: '/nowhere', signal: new AbortController().signal };

function planWithSteps(): PlanStore {
  const store = new PlanStore();
  if (!store.propose(three, { source: 'agent' }).ok) throw new Error('setup plan refused');
  return store;
}

/** A view that has seen the plan as it is, as after the model's own first `todo` call. */
function viewOf(store: PlanStore, seen: number[] = []): PlanView {
  const view = new PlanView(store, { onSeen: (version) => seen.push(version) });
  view.updated();
  return view;
}

describe('rounds since the last update', () => {
  it('counts rounds without todo and resets on a round that calls todo', () => {
    const view = viewOf(planWithSteps());
    view.recordRound(false);
    view.recordRound(false);
    expect(view.roundsSinceUpdate).toBe(2);
    view.recordRound(true);
    expect(view.roundsSinceUpdate).toBe(0);
  });

  it("resets on the model's accepted todo call, and on a user edit only once it is shown", async () => {
    const store = planWithSteps();
    const view = viewOf(store);
    const todo = createTodoTool(view);
    view.recordRound(false);
    view.recordRound(false);
    store.propose(three.slice(0, 2), { source: 'user' });
    expect(view.roundsSinceUpdate).toBe(2);
    expect(takeUserPlanUpdate(view)?.text).toContain('<plan-update source="user">');
    expect(view.roundsSinceUpdate).toBe(0);
    view.recordRound(false);
    const accepted = await todo.run({ items: store.items.map((item) => ({ ...item })) }, context);
    expect(accepted.isError).toBe(false);
    expect(view.roundsSinceUpdate).toBe(0);
  });

  it('does not reset on a refused todo call, which still shows the model the plan', async () => {
    const store = planWithSteps();
    const view = viewOf(store);
    view.recordRound(false);
    const refused = await createTodoTool(view).run({ items: 'not a list' }, context);
    expect(refused.isError).toBe(true);
    expect(view.roundsSinceUpdate).toBe(1);
    expect(view.seenVersion).toBe(store.version);
  });

  it('the reminder comes when due and marks the plan seen; a shown user edit comes before it and makes it wait', () => {
    const store = planWithSteps();
    const view = viewOf(store);
    for (let round = 0; round < 3; round++) view.recordRound(false);
    store.propose([{ ...store.items[0]!, status: 'in_progress' }, ...store.items.slice(1)], { source: 'user' });
    expect(takeUserPlanUpdate(view)).not.toBeNull();
    expect(takeReminder(view, 3)).toBeNull();
    for (let round = 0; round < 3; round++) view.recordRound(false);
    expect(takeReminder(view, 3)?.text).toContain('3 rounds');
  });
});

describe("the person's edits the model has not seen", () => {
  it('are unseen until shown, then never shown twice; the seen version is kept once per move', () => {
    const store = planWithSteps();
    const seen: number[] = [];
    const view = viewOf(store, seen);
    expect(view.unseenUserEdits()).toBeNull();
    store.propose(three.slice(0, 2), { source: 'user' });
    expect(view.unseenUserEdits()?.map((change) => change.kind)).toEqual(['removed']);
    expect(takeUserPlanUpdate(view)).not.toBeNull();
    expect(takeUserPlanUpdate(view)).toBeNull();
    view.markSeen();
    expect(seen).toEqual([1, 2]);
  });

  it("refuse the model's todo call that did not see them, once: the refusal shows them", async () => {
    const store = planWithSteps();
    const view = viewOf(store);
    const todo = createTodoTool(view);
    store.propose(three.slice(0, 2), { source: 'user' });
    const stale = await todo.run({ items: three }, context);
    expect(stale.isError).toBe(true);
    expect(store.items).toHaveLength(2);
    const retried = await todo.run({ items: store.items.map((item) => ({ ...item })) }, context);
    expect(retried.isError).toBe(false);
  });

  it('restore where the model left off: a restored seen version still finds the edit made after it', () => {
    const store = planWithSteps();
    store.propose(three.slice(0, 2), { source: 'user' });
    expect(new PlanView(store, { seenVersion: 1 }).unseenUserEdits()).not.toBeNull();
    expect(new PlanView(store, { seenVersion: 2 }).unseenUserEdits()).toBeNull();
  });
});

describe('one view per agent', () => {
  it('two models on one plan each see what they were shown, and each count their own rounds', () => {
    const store = planWithSteps();
    const lead = viewOf(store);
    const helper = viewOf(store);
    store.propose(three.slice(0, 2), { source: 'user' });
    expect(takeUserPlanUpdate(lead)).not.toBeNull();
    expect(lead.unseenUserEdits()).toBeNull();
    expect(helper.unseenUserEdits()).not.toBeNull();
    lead.recordRound(false);
    helper.recordRound(false);
    helper.recordRound(false);
    expect([lead.roundsSinceUpdate, helper.roundsSinceUpdate]).toEqual([1, 2]);
  });
});
