import { z } from 'zod';
import type { Tool } from '../types';
import { formatRunResult } from './formatResult';
import { runInPty } from './runInPty';

export const BASH_TOOL_NAME = 'bash';
export const DEFAULT_TIMEOUT_SECONDS = 120;
export const MAX_TIMEOUT_SECONDS = 600;

export const bashInputSchema = z.object({
  command: z.string().min(1).describe('The command line to run, e.g. "npm test 2>&1 | tail -n 50" or "ls -la src && git status".'),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(`Seconds before the command is killed. Default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}; raise it for long builds or test suites.`),
});

export type BashInput = z.infer<typeof bashInputSchema>;

/**
 * Keeps a command from sitting in a pager or at a password prompt until its timeout: nothing
 * can be typed into the terminal, so these would only hang.
 */
const NON_INTERACTIVE_ENV = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };

const shellDescription =
  process.platform === 'win32'
    ? 'Runs in Windows PowerShell (powershell.exe -NoProfile)'
    : 'Runs in a fresh non-interactive `bash -c` (or `sh -c` where bash is missing), without profile or rc files,';

export const bashTool: Tool<typeof bashInputSchema> = {
  name: BASH_TOOL_NAME,
  description:
    `Run a shell command in the workspace folder and get its output. ${shellDescription} in a pseudo-terminal whose ` +
    'working directory is the workspace. Every call starts from scratch: a `cd` or a variable does not carry over to the ' +
    'next call, so chain steps with `&&` in one command. Nothing can be typed into the terminal: do not run commands that ' +
    'wait for input, open an editor or need a password; use non-interactive flags (`-y`, `--yes`, `--no-pager`, `CI=1`). ' +
    'stdout and stderr arrive together in print order. ' +
    'The result is the output with colours and escape codes removed and progress-bar redraws collapsed to their last ' +
    'state; long output keeps its first and last 200 lines (about 15 KB each) with a note of how much was left out, so ' +
    'filter with grep/head/tail when you want a particular part. The last line states how it ended: `[exit code: N]` ' +
    '(a non-zero code is reported, not treated as a failure of the tool), `[terminated by signal NAME]`, or a timeout. ' +
    `The timeout is in seconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}): then the command and all ` +
    'its child processes are killed and the output so far is returned. The call returns when the command itself exits; ' +
    'to leave a server running, start it detached with its output in a file, e.g. `nohup npm run dev > dev.log 2>&1 &`, ' +
    'then read the file.',
  inputSchema: bashInputSchema,
  async run(input, context) {
    const timeoutSeconds = input.timeout ?? DEFAULT_TIMEOUT_SECONDS;
    try {
      const run = await runInPty(input.command, {
        cwd: context.workspace,
        timeoutMs: timeoutSeconds * 1000,
        signal: context.signal,
        onOutput: context.onOutput,
        env: NON_INTERACTIVE_ENV,
      });
      return formatRunResult(run, timeoutSeconds);
    } catch (error) {
      return { content: `The command could not be started: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
  },
};
