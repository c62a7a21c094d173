import { describe, expect, it } from 'vitest';
import { completionGate, itemsOf, reminderDue } from '../../../common/plan/rules';
import type { PlanItem } from '../../../common/plan/types';

// The reminder and the completion gate count per owner: a helper answers for its own items, the
// main agent for the whole plan.

const plan: PlanItem[] = [
  { id: 'parse', content: 'Parse the input', status: 'completed' },
  { id: 'tests', content: 'Write the tests', status: 'in_progress', blockedBy: ['parse'] },
  { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] },
  { id: 'lint', content: 'Run the linter', status: 'in_progress', owner: 'helper-1' },
  { id: 'bench', content: 'Run the bench', status: 'completed', owner: 'helper-2' },
];
const gate = (owner?: string, items = plan) => completionGate({ items, planTouchedThisTask: true, continuesInARow: 0, bound: 2, ...(owner ? { owner } : {}) });

describe('per owner', () => {
  it('the main agent answers for every item, a helper for its own', () => {
    expect(itemsOf(plan).map((item) => item.id)).toEqual(['parse', 'tests', 'docs', 'lint', 'bench']);
    expect(itemsOf(plan, 'helper-1').map((item) => item.id)).toEqual(['lint']);
  });

  it('the gate holds the main agent to the whole plan and says how many open items are whose', () => {
    const decision = gate();
    if (decision.kind !== 'continue') throw new Error(decision.kind);
    expect(decision.message).toContain("3 plan items are still open (2 of yours, 1 of helper-1's):");
    expect(decision.message).toContain(
      '- [>] #tests Write the tests (after #parse)\n- [ ] #docs Write the docs (blocked by #tests)\n- [>] #lint Run the linter (owner: helper-1)\n',
    );
  });

  it('the gate holds a helper to its own items only', () => {
    const decision = gate('helper-1');
    if (decision.kind !== 'continue') throw new Error(decision.kind);
    expect(decision.message).toContain('1 plan item is still open:\n- [>] #lint Run the linter (owner: helper-1)\n');
    expect(gate('helper-2')).toEqual({ kind: 'done' });
  });

  it('a plan only the main agent works reads as it always has', () => {
    const decision = gate(undefined, plan.slice(0, 3));
    if (decision.kind !== 'continue') throw new Error(decision.kind);
    expect(decision.message).toContain('2 plan items are still open:\n');
  });

  it('the reminder is due for an agent with open items of its own', () => {
    const due = (owner?: string) => reminderDue({ items: plan, roundsSinceUpdate: 3, threshold: 3, waitingForUser: false, ...(owner ? { owner } : {}) });
    expect(due()).toBe(true);
    expect(due('helper-1')).toBe(true);
    expect(due('helper-2')).toBe(false);
  });
});
