import { describe, it, expect } from 'vitest';

import { diffPlans, renderPlanChanges } from '../../../common/plan/diff';
import type { PlanItem, PlanStatus } from '../../../common/plan/types';

const item = (id: string, content: string, status: PlanStatus = 'pending'): PlanItem => ({ id, content, status });
const abcd = [item('a', 'Read'), item('b', 'Write'), item('c', 'Test'), item('d', 'Report')];

describe('diffPlans', () => {
  it('reports nothing for the same plan', () => {
    expect(diffPlans(abcd, abcd)).toEqual([]);
  });

  it('reports an added item with its position', () => {
    const x = item('x', 'Lint');
    expect(diffPlans(abcd, [...abcd, x])).toEqual([{ kind: 'added', item: x, index: 4 }]);
  });

  it('reports a removed item', () => {
    expect(diffPlans(abcd, [abcd[0]!, abcd[2]!, abcd[3]!])).toEqual([{ kind: 'removed', item: abcd[1] }]);
  });

  it('reports a reworded item', () => {
    const after = [abcd[0]!, item('b', 'Write parser.ts'), abcd[2]!, abcd[3]!];
    expect(diffPlans(abcd, after)).toEqual([{ kind: 'reworded', id: 'b', from: 'Write', to: 'Write parser.ts' }]);
  });

  it('reports a status change', () => {
    const after = [item('a', 'Read', 'completed'), ...abcd.slice(1)];
    expect(diffPlans(abcd, after)).toEqual([{ kind: 'status', item: after[0], from: 'pending', to: 'completed' }]);
  });

  it('does not report later items as moved when one item is inserted', () => {
    const after = [abcd[0]!, item('x', 'Plan'), ...abcd.slice(1)];
    const changes = diffPlans(abcd, after);
    expect(changes).toEqual([{ kind: 'added', item: after[1], index: 1 }]);
  });

  it('does not report later items as moved when one item is removed', () => {
    expect(diffPlans(abcd, abcd.slice(1)).map((c) => c.kind)).toEqual(['removed']);
  });

  it('reports exactly the item that was moved to the front', () => {
    const after = [abcd[3]!, abcd[0]!, abcd[1]!, abcd[2]!];
    expect(diffPlans(abcd, after)).toEqual([{ kind: 'moved', item: abcd[3], from: 3, to: 0 }]);
  });

  it('reports exactly the item that was moved to the end', () => {
    const after = [abcd[1]!, abcd[2]!, abcd[3]!, abcd[0]!];
    expect(diffPlans(abcd, after)).toEqual([{ kind: 'moved', item: abcd[0], from: 0, to: 3 }]);
  });

  it('reports every kind of change in one rewrite', () => {
    const after = [item('c', 'Test', 'in_progress'), item('a', 'Read it all'), item('x', 'Lint'), abcd[3]!];
    const kinds = diffPlans(abcd, after).map((c) => c.kind);
    expect(kinds.sort()).toEqual(['added', 'moved', 'removed', 'reworded', 'status']);
  });
});

describe('renderPlanChanges', () => {
  it('words each change on its own line with 1-based positions', () => {
    const after = [item('d', 'Report'), item('a', 'Read all', 'completed'), item('c', 'Test'), item('x', 'Lint')];
    expect(renderPlanChanges(diffPlans(abcd, after))).toBe(
      [
        '- removed "Write" (#b)',
        '- moved "Report" from position 4 to 1 (#d)',
        '- reworded "Read" to "Read all" (#a)',
        '- "Read all": pending → completed (#a)',
        '- added "Lint" (pending) at position 4, as #x',
      ].join('\n'),
    );
  });

  it('says "(no change)" when nothing changed', () => {
    expect(renderPlanChanges([])).toBe('(no change)');
  });
});
