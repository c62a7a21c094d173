import { describe, expect, it } from 'vitest';
import { formatRunResult } from '../../../../main/tools/bash/formatResult';
import { shapeOutput } from '../../../../main/tools/bash/outputCollector';
import type { PtyRunResult } from '../../../../main/tools/bash/runInPty';

const run = (overrides: Partial<PtyRunResult>): PtyRunResult => ({
  output: shapeOutput('some output\n'),
  ending: 'exited',
  exitCode: 0,
  signal: null,
  durationMs: 10,
  shell: 'bash',
  ...overrides,
});

describe('formatRunResult', () => {
  it('states the exit code; a non-zero code is not a tool error', () => {
    expect(formatRunResult(run({ exitCode: 0 }), 120)).toEqual({ content: 'some output\n[exit code: 0]', isError: false });
    expect(formatRunResult(run({ exitCode: 2 }), 120)).toEqual({ content: 'some output\n[exit code: 2]', isError: false });
  });

  it('names the signal that ended the command', () => {
    expect(formatRunResult(run({ exitCode: null, signal: 'SIGSEGV' }), 120).content).toBe('some output\n[terminated by signal SIGSEGV]');
  });

  it('says so when there was no output', () => {
    expect(formatRunResult(run({ output: shapeOutput('') }), 120).content).toBe('(no output)\n[exit code: 0]');
  });

  it('makes a timeout and a stop errors that keep the output so far', () => {
    const timedOut = formatRunResult(run({ ending: 'timeout', exitCode: null, signal: 'SIGTERM' }), 5);
    expect(timedOut.isError).toBe(true);
    expect(timedOut.content).toMatch(/^some output\n\[timed out after 5 s: the command and its child processes were killed/);
    const stopped = formatRunResult(run({ ending: 'aborted', exitCode: null }), 5);
    expect(stopped.isError).toBe(true);
    expect(stopped.content).toMatch(/^some output\n\[stopped by the person/);
  });
});
