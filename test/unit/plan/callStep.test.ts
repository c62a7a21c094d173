import { describe, expect, it } from 'vitest';
import { todoCallStep } from '../../../common/plan/callStep';
import type { PlanItem, PlanSource } from '../../../common/plan/types';

const step = (id: string, content: string): PlanItem => ({ id, content, status: 'pending' });
const version = (n: number, source: PlanSource, items: PlanItem[]) => ({ version: n, source, items });

describe('todoCallStep: what an accepted todo call replaced', () => {
  it('diffs against the person’s version it replaced, and gives the person’s edits since the agent’s plan apart', () => {
    const agent = version(1, 'agent', [step('1', 'Read')]);
    const person = version(2, 'user', [step('1', 'Read'), step('2', 'Mine')]);
    const call = version(3, 'agent', [{ ...step('1', 'Read'), status: 'completed' }, step('2', 'Mine')]);
    expect(todoCallStep([agent, person, call], 2)).toEqual({
      plan: { before: person.items, after: call.items },
      yours: { before: agent.items, after: person.items },
    });
  });

  it('has no edits of the person when the call replaced the agent’s own plan, and nothing when it stored nothing', () => {
    const agent = version(1, 'agent', [step('1', 'Read')]);
    const call = version(2, 'agent', [step('1', 'Read'), step('2', 'Write')]);
    expect(todoCallStep([agent, call], 1)).toEqual({ plan: { before: agent.items, after: call.items } });
    expect(todoCallStep([agent], 1)).toBeNull();
  });
});
