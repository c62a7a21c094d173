import { describe, it, expect } from 'vitest';

import { diffPlans } from '../../../common/plan/diff';
import { renderPlan } from '../../../common/plan/render';
import { completionGate, reminderDue, reminderText, staleRewriteText, userPlanUpdateText } from '../../../common/plan/rules';
import { DEFAULT_GATE_BOUND, DEFAULT_REMINDER_ROUNDS, type PlanItem } from '../../../common/plan/types';

const plan: PlanItem[] = [
  { id: '1', content: 'Read the existing code', status: 'completed' },
  { id: '2', content: 'Write hello.py', status: 'in_progress', activeForm: 'writing hello.py' },
  { id: '3', content: 'Run it and check the output', status: 'pending' },
];
const allDone = plan.map((item) => ({ ...item, status: 'completed' as const }));

const due = (roundsSinceUpdate: number, overrides: Partial<Parameters<typeof reminderDue>[0]> = {}) =>
  reminderDue({ items: plan, roundsSinceUpdate, threshold: DEFAULT_REMINDER_ROUNDS, waitingForUser: false, ...overrides });

describe('reminder', () => {
  it('uses 3 rounds by default', () => {
    expect(DEFAULT_REMINDER_ROUNDS).toBe(3);
  });

  it('is due after 3 stale rounds, not at 0, 1, 2, 4 or 5, and again at 6', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].filter((n) => due(n))).toEqual([3, 6, 9]);
  });

  it('is not sent while the agent is waiting for the person', () => {
    expect(due(3, { waitingForUser: true })).toBe(false);
  });

  it('is not sent when there is no plan', () => {
    expect(due(3, { items: [] })).toBe(false);
  });

  it('is not sent when every item is completed', () => {
    expect(due(3, { items: allDone })).toBe(false);
  });

  it('respects the threshold setting', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((n) => due(n, { threshold: 5 }))).toEqual([5, 10]);
    expect([1, 2, 3].filter((n) => due(n, { threshold: 1 }))).toEqual([1, 2, 3]);
  });

  it('is never due with a threshold below 1 (reminders switched off)', () => {
    expect(due(3, { threshold: 0 })).toBe(false);
  });

  it('asks for a refresh in a <reminder> block that holds the rendered plan', () => {
    const text = reminderText(plan, 3);
    expect(text.startsWith('<reminder>')).toBe(true);
    expect(text.endsWith('</reminder>')).toBe(true);
    expect(text).toContain('3 rounds');
    expect(text).toContain('todo');
    expect(text).toContain(renderPlan(plan));
  });
});

describe('completion gate', () => {
  const gate = (overrides: Partial<Parameters<typeof completionGate>[0]> = {}) =>
    completionGate({ items: plan, planTouchedThisTask: true, continuesInARow: 0, bound: DEFAULT_GATE_BOUND, ...overrides });

  it('lets the task finish when every item is completed', () => {
    expect(gate({ items: allDone })).toEqual({ kind: 'done' });
  });

  it('lets the task finish with no plan', () => {
    expect(gate({ items: [] })).toEqual({ kind: 'done' });
  });

  it('does not hold a task to a plan it did not make or change', () => {
    expect(gate({ planTouchedThisTask: false })).toEqual({ kind: 'done' });
  });

  it('asks to continue, listing exactly the unfinished items', () => {
    const decision = gate();
    expect(decision.kind).toBe('continue');
    if (decision.kind !== 'continue') return;
    expect(decision.message).toContain('2 plan items are still open');
    expect(decision.message).toContain('- [>] #2 Write hello.py (writing hello.py)\n- [ ] #3 Run it and check the output\n');
    expect(decision.message).not.toContain('Read the existing code');
    expect(decision.message).toContain('update the plan with the todo tool');
  });

  it('uses the singular for one open item', () => {
    const decision = gate({ items: [...allDone.slice(0, 2), plan[2]!] });
    expect(decision.kind === 'continue' && decision.message).toContain('1 plan item is still open');
  });

  it('stops with the unfinished items after 2 continues in a row by default', () => {
    expect(DEFAULT_GATE_BOUND).toBe(2);
    expect(gate({ continuesInARow: 0 }).kind).toBe('continue');
    expect(gate({ continuesInARow: 1 }).kind).toBe('continue');
    expect(gate({ continuesInARow: 2 })).toEqual({ kind: 'stop', unfinished: [plan[1], plan[2]] });
  });

  it('respects the bound setting', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => gate({ continuesInARow: n, bound: 4 }).kind)).toEqual([
      'continue',
      'continue',
      'continue',
      'continue',
      'stop',
      'stop',
    ]);
    expect(gate({ continuesInARow: 0, bound: 0 }).kind).toBe('stop');
  });
});

describe('text blocks for the model', () => {
  const before = plan;
  const after: PlanItem[] = [plan[0]!, { ...plan[1]!, content: 'Write hello.py with a main()' }, { id: '4', content: 'Add a test', status: 'pending' }];
  const changes = diffPlans(before, after);

  it('tells the model of a user edit in a <plan-update source="user"> block with the diff and the plan', () => {
    const text = userPlanUpdateText(changes, after);
    expect(text.startsWith('<plan-update source="user">')).toBe(true);
    expect(text.endsWith('</plan-update>')).toBe(true);
    expect(text).toContain('- removed "Run it and check the output"');
    expect(text).toContain('- reworded "Write hello.py" to "Write hello.py with a main()"');
    expect(text).toContain('- added "Add a test" (pending) at position 3');
    expect(text).toContain(renderPlan(after));
  });

  it('refuses a stale rewrite showing the user change and the current plan', () => {
    const text = staleRewriteText(changes, after);
    expect(text).toContain('Plan not changed');
    expect(text).toContain('- removed "Run it and check the output"');
    expect(text).toContain(renderPlan(after));
    expect(text).toContain('Call todo again');
  });
});
