import { describe, it, expect } from 'vitest';

import type { PlanItem } from '../../../common/plan/types';
import { validatePlan, type PlanValidation } from '../../../common/plan/validate';

function accepted(result: PlanValidation): PlanItem[] {
  if (!result.ok) throw new Error(`expected the plan to be accepted, got: ${result.error.message}`);
  return result.items;
}

function refusal(result: PlanValidation): string {
  if (result.ok) throw new Error('expected the plan to be refused');
  expect(result).not.toHaveProperty('items');
  return result.error.message;
}

const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ content: `Step ${i + 1}`, status: 'pending' }));

describe('plan size', () => {
  it('accepts a plan of 12 items', () => {
    expect(accepted(validatePlan(steps(12)))).toHaveLength(12);
  });

  it('refuses a plan of 13 items, saying 13 and at most 12', () => {
    const message = refusal(validatePlan(steps(13)));
    expect(message).toContain('13 items');
    expect(message).toContain('at most 12');
  });

  it('accepts an empty list as an empty plan', () => {
    expect(accepted(validatePlan([]))).toEqual([]);
  });
});

describe('at most one item in progress', () => {
  it('refuses two in_progress items and names both', () => {
    const result = validatePlan([
      { content: 'Read the code', status: 'in_progress' },
      { content: 'Write the fix', status: 'pending' },
      { content: 'Run the tests', status: 'in_progress' },
    ]);
    const message = refusal(result);
    expect(message).toContain('Only one item can be in_progress');
    expect(message).toContain('item 1 ("Read the code")');
    expect(message).toContain('item 3 ("Run the tests")');
  });

  it('says the three in-progress items once, not once per extra item', () => {
    const message = refusal(
      validatePlan([
        { content: 'A', status: 'in_progress' },
        { content: 'B', status: 'in_progress' },
        { content: 'C', status: 'in_progress' },
      ]),
    );
    expect(message.match(/Only one item can be in_progress/g)).toHaveLength(1);
    expect(message).toContain('3 are');
  });

  it('accepts exactly one in_progress item', () => {
    const items = accepted(validatePlan([{ content: 'A', status: 'in_progress' }, { content: 'B' }]));
    expect(items.map((i) => i.status)).toEqual(['in_progress', 'pending']);
  });
});

describe('content', () => {
  it('refuses an empty content and names the item number', () => {
    const message = refusal(
      validatePlan([
        { content: 'Fine', status: 'pending' },
        { content: '', status: 'pending' },
      ]),
    );
    expect(message).toContain('Item 2: content is empty');
  });

  it('refuses whitespace-only content', () => {
    expect(refusal(validatePlan([{ content: '  \n\t ', status: 'pending' }]))).toContain('Item 1: content is empty');
  });

  it('refuses an item without content, saying it is missing', () => {
    expect(refusal(validatePlan([{ status: 'pending' }]))).toContain('Item 1: content is missing');
  });

  it('refuses content that is not text', () => {
    expect(refusal(validatePlan([{ content: 42, status: 'pending' }]))).toContain('Item 1: content must be text, but got number 42');
  });

  it('refuses an item over 500 characters, naming the item, its length and the limit', () => {
    const long = 'x'.repeat(3 * 1024 * 1024);
    const result = validatePlan([{ content: 'Fine' }, { content: long }]);
    expect(refusal(result)).toContain('Item 2 is 3145728 characters long; at most 500 are allowed.');
    expect(result.ok ? [] : result.error.problems.map((p) => p.index)).toEqual([1]);
    expect(refusal(validatePlan([{ content: 'Run it', activeForm: 'y'.repeat(501) }]))).toContain('Item 1: activeForm is 501 characters long; at most 500');
  });

  it('counts characters, not UTF-16 units: 500 Chinese characters or emoji fit', () => {
    expect(accepted(validatePlan([{ content: '测'.repeat(500) }, { content: '🚀'.repeat(500) }]))).toHaveLength(2);
    expect(refusal(validatePlan([{ content: '🚀'.repeat(501) }]))).toContain('Item 1 is 501 characters long');
  });

  it('trims the content it stores', () => {
    expect(accepted(validatePlan([{ content: '  Run it  ' }]))[0]!.content).toBe('Run it');
  });
});

describe('status', () => {
  it('refuses an unknown status such as "done" and does not repair it', () => {
    const result = validatePlan([{ content: 'Write hello.py', status: 'done' }]);
    const message = refusal(result);
    expect(message).toContain('Item 1 ("Write hello.py"): status "done" is not one of pending, in_progress, completed');
  });

  it('normalises " IN_PROGRESS " to in_progress', () => {
    expect(accepted(validatePlan([{ content: 'A', status: ' IN_PROGRESS ' }]))[0]!.status).toBe('in_progress');
  });

  it('treats a missing status as pending', () => {
    expect(accepted(validatePlan([{ content: 'A' }]))[0]!.status).toBe('pending');
  });

  it('refuses a status that is not text', () => {
    expect(refusal(validatePlan([{ content: 'A', status: 1 }]))).toContain('status number 1 is not one of');
  });
});

describe('shape of the proposal', () => {
  it.each([
    ['an object', { content: 'A' }, 'but got an object'],
    ['a string', 'A, B, C', 'but got the text "A, B, C"'],
    ['null', null, 'but got null'],
    ['undefined', undefined, 'but got nothing'],
  ])('refuses items given as %s and says a list is expected', (_name, proposed, got) => {
    const message = refusal(validatePlan(proposed));
    expect(message).toContain('`items` must be a list of plan items');
    expect(message).toContain(got);
    expect(message).not.toContain('undefined undefined');
  });

  it('refuses an item that is not an object and names its number', () => {
    const message = refusal(validatePlan([{ content: 'A' }, 'B', ['C']]));
    expect(message).toContain('Item 2 must be an object');
    expect(message).toContain('the text "B"');
    expect(message).toContain('Item 3 must be an object');
    expect(message).toContain('a list');
  });

  it('refuses an activeForm that is not text', () => {
    expect(refusal(validatePlan([{ content: 'A', status: 'in_progress', activeForm: 7 }]))).toContain('Item 1: activeForm must be text');
  });

  it('keeps a trimmed activeForm and drops a blank one', () => {
    const items = accepted(
      validatePlan([
        { content: 'A', status: 'in_progress', activeForm: '  Doing A ' },
        { content: 'B', activeForm: '   ' },
      ]),
    );
    expect(items[0]!.activeForm).toBe('Doing A');
    expect(items[1]).not.toHaveProperty('activeForm');
  });

  it('refuses two items with the same id', () => {
    const message = refusal(
      validatePlan([
        { id: 'a', content: 'A' },
        { id: 'a', content: 'B' },
      ]),
    );
    expect(message).toContain('Item 2 repeats the id "a" of item 1');
  });

  it('refuses an id that is neither a short id nor a whole number', () => {
    expect(refusal(validatePlan([{ id: '  ', content: 'A' }]))).toContain('Item 1: id "" is not a short id');
    expect(refusal(validatePlan([{ id: 'write the tests', content: 'A' }]))).toContain('Item 1: id "write the tests" is not a short id');
    expect(accepted(validatePlan([{ id: 5, content: 'A' }]))[0]!.id).toBe('5');
  });
});

describe('all or nothing', () => {
  it('reports every problem at once', () => {
    const proposed = [
      ...steps(12),
      { content: '', status: 'pending' },
      { content: 'X', status: 'done' },
      { content: 'Y', status: 'in_progress' },
      { content: 'Z', status: 'in_progress' },
    ];
    const result = validatePlan(proposed);
    const message = refusal(result);
    expect(message).toContain('16 items');
    expect(message).toContain('Item 13: content is empty');
    expect(message).toContain('Item 14 ("X"): status "done"');
    expect(message).toContain('Only one item can be in_progress');
    expect(message).toContain('4 problems');
    if (!result.ok) expect(result.error.problems.map((p) => p.index)).toEqual([null, 12, 13, 15]);
  });

  it('returns no items when one item of many is invalid', () => {
    const result = validatePlan([{ content: 'A' }, { content: 'B', status: 'finished' }, { content: 'C' }]);
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('items');
  });

  it('says that nothing was changed and how to fix it', () => {
    const message = refusal(validatePlan([{ content: 'A', status: 'done' }]));
    expect(message).toMatch(/^Plan refused; nothing was changed\. One problem:/);
    expect(message).toContain('Send the whole corrected list again.');
  });
});

describe('stable ids', () => {
  const first = () => accepted(validatePlan([{ content: 'Read the code' }, { content: 'Write the fix' }, { content: 'Run the tests' }]));

  it('assigns distinct fresh ids to a new plan', () => {
    const ids = first().map((i) => i.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => id.length > 0)).toBe(true);
  });

  it('keeps the id of an item whose text is unchanged, even when it moves or changes status', () => {
    const before = first();
    const after = accepted(
      validatePlan(
        [{ content: 'Run the tests' }, { content: 'read the code', status: 'completed' }, { content: 'Write the fix', status: 'in_progress' }],
        before,
      ),
    );
    expect(after.map((i) => i.id)).toEqual([before[2]!.id, before[0]!.id, before[1]!.id]);
  });

  it('keeps an explicit id', () => {
    const before = first();
    const after = accepted(validatePlan([{ id: before[2]!.id, content: 'Run the whole test suite' }], before));
    expect(after[0]!.id).toBe(before[2]!.id);
    expect(accepted(validatePlan([{ id: 'mine', content: 'A' }]))[0]!.id).toBe('mine');
  });

  it('keeps the id of a reworded item at the same position', () => {
    const before = first();
    const after = accepted(validatePlan([{ content: 'Read the code' }, { content: 'Write the fix in parser.ts' }, { content: 'Run the tests' }], before));
    expect(after.map((i) => i.id)).toEqual(before.map((i) => i.id));
  });

  it('gives a new item a new id that collides with no other', () => {
    const before = first();
    const after = accepted(validatePlan([...before, { content: 'Write the report' }], before));
    expect(after.slice(0, 3).map((i) => i.id)).toEqual(before.map((i) => i.id));
    expect(before.map((i) => i.id)).not.toContain(after[3]!.id);
  });

  it('does not give a new item the id of an explicit id elsewhere in the list', () => {
    const after = accepted(validatePlan([{ content: 'A' }, { id: '1', content: 'B' }, { id: '2', content: 'C' }]));
    expect(new Set(after.map((i) => i.id)).size).toBe(3);
    expect(after[0]!.id).not.toMatch(/^[12]$/);
  });

  it('does not reuse the id of an item removed in the same rewrite for an item added elsewhere', () => {
    const before = first();
    // "Write the fix" is dropped and a new last step appears: that is a removal and an addition,
    // so the new step must not inherit the removed step's id.
    const after = accepted(validatePlan([{ content: 'Read the code' }, { content: 'Run the tests' }, { content: 'Write the report' }], before));
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(after[1]!.id).toBe(before[2]!.id);
    expect(before.map((i) => i.id)).not.toContain(after[2]!.id);
  });

  it('does not hand out an id listed as used by earlier versions', () => {
    const previous: PlanItem[] = [{ id: '1', content: 'A', status: 'pending' }];
    const after = accepted(validatePlan([{ content: 'A' }, { content: 'B' }], previous, { usedIds: ['2', '3'] }));
    expect(after.map((i) => i.id)).toEqual(['1', '4']);
  });
});
