import { describe, expect, it } from 'vitest';
import { delegateSummary } from '../../../renderer/chat/tools/toolInfo';

/* The one line a `delegate` call's card shows: the step and what the helper is told, not raw JSON. */

describe("a delegate call's card summary", () => {
  it('reads #step: instructions', () => {
    expect(delegateSummary({ item: 'parse', instructions: 'Fix the parser so that empty lines are skipped.' })).toBe(
      '#parse: Fix the parser so that empty lines are skipped.',
    );
  });

  it('shows the first line only, with … when more follow', () => {
    expect(delegateSummary({ item: 'parse', instructions: '  Fix the parser.\nThen run its tests.\n' })).toBe('#parse: Fix the parser. …');
  });

  it('cuts a long line at the length of the other cards', () => {
    const summary = delegateSummary({ item: 'docs', instructions: 'word '.repeat(60) });
    expect(summary).toHaveLength(120);
    expect(summary.startsWith('#docs: word word')).toBe(true);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('shows what has streamed in so far', () => {
    expect(delegateSummary({})).toBe('');
    expect(delegateSummary({ item: 'parse' })).toBe('#parse');
    expect(delegateSummary({ instructions: 'Fix it' })).toBe('Fix it');
    expect(delegateSummary('not an object')).toBe('');
  });
});
