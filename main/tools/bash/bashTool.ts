import { z } from 'zod';
import { commandEnvironment, loginShellPath } from '../../platform/loginEnvironment';
import type { Tool } from '../types';
import { formatRunResult } from './formatResult';
import { commandExample, shellToolDescription } from './bashDescription';
import { runInPty } from './runInPty';
import { shellKind } from './shell';
import { blockedNote } from '../../sandbox/blockedNote';
import { withoutKeelSecrets } from '../../sandbox/commandEnvironment';
import type { SandboxedCommand } from '../../sandbox/workspaceSandbox';

export const BASH_TOOL_NAME = 'bash';
export const DEFAULT_TIMEOUT_SECONDS = 120;
export const MAX_TIMEOUT_SECONDS = 600;
/** The shell this machine runs commands in, named in the tool's description. */
const SHELL = shellKind();

export const bashInputSchema = z.object({
  command: z.string().min(1).describe(commandExample(SHELL)),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .optional()
    .describe(
      `Seconds before the command is killed. Default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}; raise it for long builds or test suites.`,
    ),
});

export type BashInput = z.infer<typeof bashInputSchema>;

/**
 * Keeps a command from sitting in a pager or at a password prompt until its timeout: nothing
 * can be typed into the terminal, so these would only hang.
 */
const NON_INTERACTIVE_ENV = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };

export const bashTool: Tool<typeof bashInputSchema> = {
  name: BASH_TOOL_NAME,
  kind: 'command',
  description: shellToolDescription(SHELL, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS),
  inputSchema: bashInputSchema,
  async run(input, context) {
    const timeoutSeconds = input.timeout ?? DEFAULT_TIMEOUT_SECONDS;
    const status = context.sandbox ? await context.sandbox.start() : undefined;
    if (status?.state === 'unavailable' && status.required) {
      return {
        content: `The command was not run: the sandbox is required (setting "sandbox": "required" or KEEL_SANDBOX=required) but unavailable here: ${status.why}`,
        isError: true,
      };
    }
    let sandboxed: SandboxedCommand | undefined;
    try {
      if (status?.state === 'on') sandboxed = await context.sandbox!.wrap(input.command, context.sessionId ?? 'default');
      const run = await runInPty(input.command, {
        cwd: context.workspace,
        timeoutMs: timeoutSeconds * 1000,
        signal: context.signal,
        onOutput: context.onOutput,
        env: { ...commandEnvironment(process.env, await loginShellPath()), ...NON_INTERACTIVE_ENV, ...withoutKeelSecrets(), ...sandboxed?.env },
        ...(sandboxed ? { invocation: { file: sandboxed.file, args: sandboxed.args, name: 'bash' as const } } : {}),
      });
      const result = formatRunResult(run, timeoutSeconds);
      const note = sandboxed ? blockedNote(run.output.text) : undefined;
      return note ? { ...result, content: `${result.content}\n${note}` } : result;
    } catch (error) {
      return { content: `The command could not be started: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    } finally {
      await sandboxed?.done();
    }
  },
};
