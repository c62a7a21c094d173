import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellCommandLine, shellQuote } from '../../../main/platform/shellQuote';

describe('shell words', () => {
  it('leaves plain words alone and quotes the rest', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote('--port=80')).toBe('--port=80');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('gives bash exactly the arguments, whatever they hold', () => {
    const args = ["it's", 'a "quote"', '$(touch /tmp/pwned)', '`id`', 'semi;colon', 'new\nline', '*', '', 'back\\slash', '$HOME'];
    const line = shellCommandLine(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...args]);
    expect(JSON.parse(execFileSync('/bin/bash', ['-c', line], { encoding: 'utf8' }))).toEqual(args);
  });
});
