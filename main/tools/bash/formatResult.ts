import type { ToolResult } from '../types';
import type { PtyRunResult } from './runInPty';

/**
 * The tool result for the model: the output, then one line in brackets that says how the
 * command ended.
 *
 * A non-zero exit code is not a tool error: it is an ordinary, informative answer (`grep` found
 * nothing, a test failed) that the model reads and acts on, and the line states it plainly.
 * Only a run that did not end on its own (timeout, the person's Stop) is an error.
 */
export function formatRunResult(run: PtyRunResult, timeoutSeconds: number): ToolResult {
  const output = run.output.text === '' ? '(no output)' : run.output.text;
  return { content: `${output}\n${statusLine(run, timeoutSeconds)}`, isError: run.ending !== 'exited' };
}

function statusLine(run: PtyRunResult, timeoutSeconds: number): string {
  switch (run.ending) {
    case 'timeout':
      return `[timed out after ${timeoutSeconds} s: the command and its child processes were killed; the output above is what it printed until then]`;
    case 'aborted':
      return '[stopped by the person: the command and its child processes were killed; the output above is what it printed until then]';
    case 'exited':
      if (run.signal) return `[terminated by signal ${run.signal}]`;
      return `[exit code: ${run.exitCode ?? 'unknown'}]`;
  }
}
