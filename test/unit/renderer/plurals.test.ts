import { describe, expect, it } from 'vitest';
import { plural } from '../../../renderer/i18n/plural';
import { translator } from '../../../renderer/i18n/translate';

const t = translator('en');

describe('English counts', () => {
  it('one open step of four reads "is", two read "are"', () => {
    const say = (open: number) => plural(t, open, 'plan.cancelled.text.one', 'plan.cancelled.text', { open, total: 4 });
    expect(say(1)).toContain('1 of 4 steps is not done');
    expect(say(2)).toContain('2 of 4 steps are not done');
    const stopped = (open: number) => plural(t, open, 'plan.stopped.text.one', 'plan.stopped.text', { open, total: 4 });
    expect(stopped(1)).toContain('1 of 4 steps is not done');
  });

  it('one folder suggestion is "1 matching folder"', () => {
    expect(plural(t, 1, 'folders.suggestionCount.one', 'folders.suggestionCount')).toMatch(/^1 matching folder\./);
    expect(plural(t, 3, 'folders.suggestionCount.one', 'folders.suggestionCount')).toMatch(/^3 matching folders\./);
  });
});
