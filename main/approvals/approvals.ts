import type { PlatformPath } from 'node:path';
import type { ApprovalMode, ApprovalRequest, ToolKind } from '../../common/approvals';
import { commandLinePrograms, judgeCommandLine } from './shellLine';
import type { ShellKind } from './shellWords';
import { placeOf } from './writePlaces';
import { isMcpToolName, serverSegmentOf } from '../mcp/toolNames';

/** A tool call as approvals see it: its tool's name and declared kind, and its input. */
export interface ToolCall {
  name: string;
  kind: ToolKind;
  input: unknown;
}

/**
 * The kind of the tool a call names. A call to a tool Keel does not hold is judged by its name:
 * an MCP server's tool that went away is still an MCP call; anything else is a command, and asks.
 */
export function kindOfCall(name: string, tool: { kind?: ToolKind } | undefined): ToolKind {
  return tool ? (tool.kind ?? 'command') : isMcpToolName(name) ? 'mcp' : 'command';
}

/**
 * The rule an "Allow for this session" answer adds: for a command, its program (`npm test` allows
 * `npm …`); for a chain or pipe, all of its programs (`npm test 2>&1 | tail` allows `npm …` and
 * `tail …`); for a file change, every file change in the workspace.
 */
export function sessionRuleFor(call: ToolCall, shell: ShellKind = 'posix'): string {
  const { name, kind } = call;
  if (kind === 'mcp') return `tool:${name}`;
  if (kind === 'file_change') return 'file_change';
  const command = commandOf(call.input);
  const programs = command === undefined ? [] : [...new Set(commandLinePrograms(command, shell) ?? [firstWord(command)])].filter((p) => p !== '');
  return programs.length > 0 ? `command:${programs.join(' ')}` : `tool:${name}`;
}

/** What approvals need to know about a command line: see judgeCommand. */
export type CommandJudgement =
  | { ok: false; reason: string }
  | {
      ok: true;
      programs: string[];
      /** Programs that run other programs (sudo, env, bash -c, xargs, find -exec…): no rule covers them. */
      wrappers: string[];
      /** Targets of writes outside the workspace, or whose place the line does not tell (~, $VAR, cd …). */
      outside: string[];
      /** Whether it writes inside the workspace by a redirection, tee, dd or sed -i: a file change. */
      changesFiles: boolean;
    };

export interface ApprovalContext {
  workspace: string;
  shell: ShellKind;
  /** path.win32 to judge Windows paths; defaults to this machine's. */
  path?: PlatformPath;
}

/** Parses a command line and places each of its writes. */
export async function judgeCommand(command: string, context: ApprovalContext): Promise<CommandJudgement> {
  const judged = judgeCommandLine(command, context.shell);
  if (!judged.ok) return judged;
  const { line } = judged;
  const places = { ...context, changesDirectory: line.changesDirectory };
  const outside: string[] = [];
  let changesFiles = false;
  for (const write of line.writes) {
    const place = await placeOf(write, places);
    // Output may go to /dev/null; `rm /dev/null` or `mv x /dev/null` is another matter.
    if (place === 'outside' || (place === 'harmless' && write.kind === 'program')) outside.push(write.target.text);
    else if (place === 'inside' && write.kind === 'redirect') changesFiles = true;
  }
  return { ok: true, programs: line.programs, wrappers: line.wrappers, outside, changesFiles };
}

/**
 * Pure: whether a call must wait for the person under this mode and the session's rules. A
 * command needs its judgement (judgeCommand); without one it asks.
 */
export function needsApproval(mode: ApprovalMode, call: ToolCall, sessionRules: ReadonlySet<string>, judged?: CommandJudgement): boolean {
  const { name, kind } = call;
  // An MCP tool can do anything its server does: it asks in every mode but full auto, unless the
  // tool (`tool:<name>`) or its whole server (`mcp:<server>`) is allowed.
  if (kind === 'mcp') return mode !== 'full_auto' && !sessionRules.has(`tool:${name}`) && !sessionRules.has(`mcp:${serverSegmentOf(name)}`);
  if (kind === 'read' || kind === 'plan' || mode === 'full_auto') return false;
  if (kind === 'file_change' && mode === 'auto_edits') return false;
  const command = kind === 'command' ? commandOf(call.input) : undefined;
  if (command === undefined || firstWord(command) === '') return !sessionRules.has(sessionRuleFor(call));
  // A rule allows a program, not whatever else a command line chains to it: every program of a
  // chain or pipe must be allowed, a command we cannot judge (a substitution, a PowerShell script
  // block) or one that runs another program (sudo, bash -c) always asks, and so does a write
  // outside the workspace. A redirection into the workspace is a file change.
  if (judged === undefined || !judged.ok) return true;
  if (judged.wrappers.length > 0 || judged.outside.length > 0) return true;
  if (judged.changesFiles && mode !== 'auto_edits' && !sessionRules.has('file_change')) return true;
  const allowed = new Set([...sessionRules].flatMap((rule) => (rule.startsWith('command:') ? rule.slice('command:'.length).split(' ') : [])));
  return !judged.programs.every((program) => allowed.has(program));
}

/** Why a command asks whatever the rules say (for its card), or undefined when a rule could cover it. */
export function alwaysAsksBecause(judged: CommandJudgement | undefined): ApprovalRequest['alwaysAsks'] {
  if (judged === undefined) return undefined;
  if (!judged.ok) return { kind: 'unjudgeable', detail: judged.reason };
  if (judged.outside.length > 0) return { kind: 'outside', detail: [...new Set(judged.outside)].join(', ').slice(0, 4000) };
  if (judged.wrappers.length > 0) return { kind: 'wrapper', detail: [...new Set(judged.wrappers)].join(', ').slice(0, 4000) };
  return undefined;
}

function commandOf(input: unknown): string | undefined {
  const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
  return typeof command === 'string' ? command : undefined;
}

/** The command line of a bash call, if it is one. */
export function commandOfCall(call: ToolCall): string | undefined {
  return call.kind === 'command' ? commandOf(call.input) : undefined;
}

function firstWord(command: string): string {
  return command.trim().split(/\s+/)[0] ?? '';
}
