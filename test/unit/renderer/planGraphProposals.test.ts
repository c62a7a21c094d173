import { describe, expect, it } from 'vitest';
import type { PlanItem } from '../../../common/plan/types';
import { validatePlan } from '../../../common/plan/validate';
import { aboutTheChangedStep, addDependency, deleteItem, moveItemBy, removeDependency, restoreDeleted } from '../../../renderer/plan/proposals';

// The board's edits of the graph: each a whole proposed list, judged by the one validator in main.

const stored: PlanItem[] = [
  { id: 'parse', content: 'Parse the input', status: 'in_progress', owner: 'helper-1' },
  { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] },
  { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['parse', 'tests'] },
];

function accepted(items: unknown): PlanItem[] {
  const result = validatePlan(items, stored);
  if (!result.ok) throw new Error(result.error.message);
  return result.items;
}

describe('board edits of the graph', () => {
  it('adds and removes a dependency, nothing else changing', () => {
    const lessDocs = accepted(removeDependency(stored, 'docs', 'tests'));
    expect(validatePlan(addDependency(lessDocs, 'docs', 'tests'), lessDocs)).toEqual({ ok: true, items: stored });
    expect(addDependency(stored, 'tests', 'parse')).toBeNull();
    const removed = accepted(removeDependency(stored, 'docs', 'parse'));
    expect(removed).toEqual([stored[0], stored[1], { ...stored[2], blockedBy: ['tests'] }]);
    expect(removeDependency(stored, 'parse', 'docs')).toBeNull();
    expect(accepted(removeDependency(stored, 'tests', 'parse'))[1]).not.toHaveProperty('blockedBy');
  });

  it('keeps dependencies and owners when a step moves', () => {
    expect(accepted(moveItemBy(stored, 'docs', -2))).toEqual([stored[2], stored[0], stored[1]]);
  });

  it('deletes a step and what waited for it; undo puts both back', () => {
    const without = accepted(deleteItem(stored, 'parse'));
    expect(without).toEqual([
      { id: 'tests', content: 'Write the tests', status: 'pending' },
      { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] },
    ]);
    const back = validatePlan(restoreDeleted(without, stored[0]!, 0, ['tests', 'docs']), without);
    expect(back).toEqual({ ok: true, items: [stored[0], stored[1], { ...stored[2], blockedBy: ['tests', 'parse'] }] });
  });

  it('leaves out of the undo what was removed since', () => {
    const tail = accepted(deleteItem(stored, 'parse')).slice(1);
    expect(restoreDeleted(tail, stored[1]!, 0, ['docs'])).toEqual([
      { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: [] },
      { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] },
    ]);
  });

  it('says a cycle beside the step whose dependencies the person changed', () => {
    const sent = addDependency(stored, 'parse', 'docs')!;
    const result = validatePlan(sent, stored);
    if (result.ok) throw new Error('expected a cycle');
    expect(result.error.problems.map((p) => [p.index, p.code])).toEqual([
      [0, 'dependency_cycle'],
      [2, 'dependency_cycle'],
    ]);
    const shown = aboutTheChangedStep(result.error.problems, sent, stored);
    expect(shown.map((p) => [p.index, p.code, p.params.cycle])).toEqual([[0, 'dependency_cycle', '#parse → #docs → #parse']]);
  });
});
