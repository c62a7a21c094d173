import { describe, expect, it } from 'vitest';
import { SettingsUpdateSchema } from '../../../common/settings';
import { percentOf, shareOf, tokensOf } from '../../../renderer/settings/contextDraft';

describe('the context fields as typed', () => {
  it('read a window as people write it; empty is the default; anything else is refused by the contract', () => {
    expect(['200000', '200,000', '200 000', '200_000', '200k', ' 200K '].map(tokensOf)).toEqual(Array(6).fill(200_000));
    expect(tokensOf('  ')).toBeNull();
    for (const text of ['lots', '2e5', '-5000', '1.5']) {
      expect(tokensOf(text), text).toBeNaN();
      expect(SettingsUpdateSchema.safeParse({ contextWindow: tokensOf(text) }).success, text).toBe(false);
    }
  });

  it('read the threshold as a percentage and show a share as one, without float noise', () => {
    expect(shareOf('80')).toBe(0.8);
    expect(shareOf('57 %')).toBe(0.57);
    expect(shareOf('')).toBeNull();
    expect(shareOf('eighty')).toBeNaN();
    expect(SettingsUpdateSchema.safeParse({ compactAt: shareOf('96') }).success).toBe(false);
    expect(SettingsUpdateSchema.safeParse({ compactAt: shareOf('95') }).success).toBe(true);
    expect([0.8, 0.57, 0.1, 0.955].map(percentOf)).toEqual(['80', '57', '10', '95.5']);
  });
});
