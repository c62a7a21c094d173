import { describe, it, expect } from 'vitest';

import { planProgress, renderPlan, unfinishedItems } from '../../../common/plan/render';
import type { PlanItem } from '../../../common/plan/types';

const helloPlan: PlanItem[] = [
  { id: '1', content: 'Read the existing code', status: 'completed', activeForm: 'reading the code' },
  { id: '2', content: 'Write hello.py', status: 'in_progress', activeForm: 'writing hello.py' },
  { id: '3', content: 'Run it and check the output', status: 'pending', activeForm: 'running it' },
];

describe('renderPlan', () => {
  it('renders exactly the format in docs/plan-rules.md', () => {
    expect(renderPlan(helloPlan)).toBe(
      '[x] #1 Read the existing code\n[>] #2 Write hello.py (writing hello.py)\n[ ] #3 Run it and check the output\n\n(1/3 completed)',
    );
  });

  it('shows activeForm only for the item in progress', () => {
    const text = renderPlan(helloPlan);
    expect(text).not.toContain('reading the code');
    expect(text).not.toContain('running it');
    expect(text).toContain('(writing hello.py)');
  });

  it('shows an in-progress item without activeForm as its content alone', () => {
    expect(renderPlan([{ id: '1', content: 'Write hello.py', status: 'in_progress' }])).toBe('[>] #1 Write hello.py\n\n(0/1 completed)');
  });

  it('says so when the plan is empty', () => {
    expect(renderPlan([])).toBe('(The plan is empty.)');
  });

  it('renders CJK content unchanged', () => {
    const plan: PlanItem[] = [
      { id: '1', content: '阅读现有代码', status: 'completed' },
      { id: '2', content: '编写 hello.py', status: 'in_progress', activeForm: '正在编写 hello.py' },
    ];
    expect(renderPlan(plan)).toBe('[x] #1 阅读现有代码\n[>] #2 编写 hello.py (正在编写 hello.py)\n\n(1/2 completed)');
  });

  it('counts every completed item', () => {
    const done = helloPlan.map((item) => ({ ...item, status: 'completed' as const }));
    expect(renderPlan(done).endsWith('(3/3 completed)')).toBe(true);
  });
});

describe('planProgress and unfinishedItems', () => {
  it('counts completed items out of all', () => {
    expect(planProgress(helloPlan)).toEqual({ completed: 1, total: 3 });
    expect(planProgress([])).toEqual({ completed: 0, total: 0 });
  });

  it('lists pending and in-progress items in order', () => {
    expect(unfinishedItems(helloPlan).map((i) => i.id)).toEqual(['2', '3']);
  });
});
