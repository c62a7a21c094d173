import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../common/limits';
import { inputChunks } from '../../../renderer/terminal/inputChunks';

describe('terminal input chunks', () => {
  it('keeps short input whole and splits a long paste into pieces the contract accepts, losing nothing', () => {
    expect(inputChunks('ls\r')).toEqual(['ls\r']);
    const paste = 'x'.repeat(LIMITS.terminalInputChars * 2 + 5);
    const pieces = inputChunks(paste);
    expect(pieces).toHaveLength(3);
    expect(pieces.every((piece) => piece.length <= LIMITS.terminalInputChars)).toBe(true);
    expect(pieces.join('')).toBe(paste);
  });

  it('never cuts between the halves of a surrogate pair (an emoji stays one character)', () => {
    const paste = `ab${'😀'.repeat(10)}`;
    const pieces = inputChunks(paste, 3);
    expect(pieces.join('')).toBe(paste);
    // A lone surrogate would turn into U+FFFD on the way to the shell.
    for (const piece of pieces) expect(Buffer.from(piece, 'utf8').toString('utf8')).toBe(piece);
  });
});
