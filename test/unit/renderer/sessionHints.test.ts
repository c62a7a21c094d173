import { describe, expect, it } from 'vitest';
import { sessionHints } from '../../../renderer/sessions/sessionHints';

const long = `Refactor the billing module so that invoices are computed in one place ${'and tested '.repeat(8)}`.trim();

describe('telling sessions apart in the list', () => {
  it('the tooltip has the whole first task, past the 80 characters of the title, and when it was used', () => {
    const hints = sessionHints([{ id: 'a', title: `${long.slice(0, 79)}…`, task: long, updatedAt: '2026-12-03T15:04:05Z' }], 'en');
    const tooltip = hints.get('a')!.tooltip;
    expect(tooltip.split('\n')[0]).toBe(long);
    expect(tooltip.split('\n')[1]).toMatch(/2026/);
    expect(tooltip).toMatch(/\d\d:\d\d:\d\d/);
  });

  it('two sessions with one title are marked, so their rows show the full date and time; others are not', () => {
    const hints = sessionHints(
      [
        { id: 'a', title: 'Fix the tests', updatedAt: '2026-12-03T15:04:05Z' },
        { id: 'b', title: 'Fix the tests', updatedAt: '2026-12-03T15:04:09Z' },
        { id: 'c', title: 'Write a README', updatedAt: '2026-12-03T15:05:00Z' },
      ],
      'en',
    );
    expect([...hints.values()].map((hint) => hint.sameTitle)).toEqual([true, true, false]);
    expect(hints.get('a')!.tooltip).not.toBe(hints.get('b')!.tooltip);
  });
});
