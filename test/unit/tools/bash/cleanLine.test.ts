import { describe, expect, it } from 'vitest';
import { cleanLine } from '../../../../main/tools/bash/cleanLine';

describe('cleanLine', () => {
  it('removes colours and other escape sequences', () => {
    expect(cleanLine('\x1b[1;31merror\x1b[0m: \x1b[4mfile.ts\x1b[24m')).toBe('error: file.ts');
  });

  it('removes a window-title OSC and keeps the text of an OSC 8 hyperlink', () => {
    expect(cleanLine('\x1b]0;my title\x07done')).toBe('done');
    expect(cleanLine('see \x1b]8;;https://example.com\x1b\\the docs\x1b]8;;\x1b\\ here')).toBe('see the docs here');
  });

  it('drops the carriage returns of the pty line end', () => {
    expect(cleanLine('hello\r')).toBe('hello');
    expect(cleanLine('hello\r\r')).toBe('hello');
  });

  it('keeps only the last state of a line redrawn with carriage returns', () => {
    expect(cleanLine('10%\r50%\r100%')).toBe('100%');
    expect(cleanLine('\x1b[32m 10%\x1b[0m\r\x1b[32m100%\x1b[0m\r')).toBe('100%');
  });

  it('keeps the last visible state when the line was blanked before its end', () => {
    expect(cleanLine('Loading…\r          \r')).toBe('Loading…');
    expect(cleanLine('Loading…\r\x1b[K')).toBe('Loading…');
  });

  it('applies backspaces and removes other control characters but keeps tabs', () => {
    expect(cleanLine('b\bbo\bol\bld')).toBe('bold');
    expect(cleanLine('ding\x07 a\tb')).toBe('ding a\tb');
  });

  it('leaves plain and non-ASCII text alone', () => {
    expect(cleanLine('汉字 and émoji 🎉')).toBe('汉字 and émoji 🎉');
  });
});
