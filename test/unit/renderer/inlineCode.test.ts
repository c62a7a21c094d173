import { describe, expect, it } from 'vitest';
import { inlineCodeParts } from '../../../renderer/plan/inlineCode';

describe('a step’s `code` on the board', () => {
  it('shows what is between backticks as code, without the backticks', () => {
    expect(inlineCodeParts('Fix `total()` in `cart.py`')).toEqual([
      { code: false, text: 'Fix ' },
      { code: true, text: 'total()' },
      { code: false, text: ' in ' },
      { code: true, text: 'cart.py' },
    ]);
  });

  it('keeps a lone or empty pair of backticks as written', () => {
    expect(inlineCodeParts('Quote the ` character')).toEqual([{ code: false, text: 'Quote the ` character' }]);
    expect(inlineCodeParts('Empty `` here')).toEqual([{ code: false, text: 'Empty `` here' }]);
    expect(inlineCodeParts('`a` and `b')).toEqual([
      { code: true, text: 'a' },
      { code: false, text: ' and `b' },
    ]);
    expect(inlineCodeParts('')).toEqual([]);
  });
});
