import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalMode, ApprovalRequest, ToolKind } from '../../common/approvals';
import { isMcpToolName, serverSegmentOf } from '../mcp/toolNames';

/** Which tool does what, for the approval modes. Unknown tools are treated as commands: ask. */
export const TOOL_KINDS: Record<string, ToolKind> = {
  bash: 'command',
  write_file: 'file_change',
  edit_file: 'file_change',
  read_file: 'read',
  list_files: 'read',
  search_text: 'read',
  todo: 'plan',
};

export function toolKind(name: string): ToolKind {
  return TOOL_KINDS[name] ?? 'command';
}

/**
 * The rule an "Allow for this session" answer adds: for a command, its program (`npm test` allows
 * `npm …`); for a chain or pipe, all of its programs (`npm test 2>&1 | tail` allows `npm …` and
 * `tail …`); for a file change, every file change in the workspace.
 */
export function sessionRuleFor(name: string, input: unknown): string {
  if (isMcpToolName(name)) return `tool:${name}`;
  if (toolKind(name) === 'file_change') return 'file_change';
  const command = commandOf(input);
  const programs = command === undefined ? [] : [...new Set(commandPrograms(command) ?? [firstWord(command)])].filter((p) => p !== '');
  return programs.length > 0 ? `command:${programs.join(' ')}` : `tool:${name}`;
}

/** Pure: whether a call must wait for the person under this mode and the session's rules. */
export function needsApproval(mode: ApprovalMode, name: string, input: unknown, sessionRules: ReadonlySet<string>): boolean {
  // An MCP tool can do anything its server does: it asks in every mode but full auto, unless the
  // tool (`tool:<name>`) or its whole server (`mcp:<server>`) is allowed.
  if (isMcpToolName(name)) return mode !== 'full_auto' && !sessionRules.has(`tool:${name}`) && !sessionRules.has(`mcp:${serverSegmentOf(name)}`);
  const kind = toolKind(name);
  if (kind === 'read' || kind === 'plan' || mode === 'full_auto') return false;
  if (kind === 'file_change' && mode === 'auto_edits') return false;
  const command = kind === 'command' ? commandOf(input) : undefined;
  if (command === undefined || firstWord(command) === '') return !sessionRules.has(sessionRuleFor(name, input));
  // A rule allows a program, not whatever else a command line chains to it: every program of a
  // chain or pipe must be allowed, and a command that substitutes another one always asks.
  const programs = commandPrograms(command);
  if (programs === null) return true;
  const allowed = new Set([...sessionRules].flatMap((rule) => (rule.startsWith('command:') ? rule.slice('command:'.length).split(' ') : [])));
  return !programs.every((program) => allowed.has(program));
}

function commandOf(input: unknown): string | undefined {
  const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
  return typeof command === 'string' ? command : undefined;
}

function firstWord(command: string): string {
  return command.trim().split(/\s+/)[0] ?? '';
}

/**
 * The programs a shell command line runs: the first word of each part of a chain or pipe
 * (`;`, `&&`, `||`, `|`, `&`, newline), with quoted text taken as text and `2>&1`-style
 * redirections kept whole. Null when the line substitutes a command (`$(…)`, backticks, `<(…)`),
 * which no rule can judge.
 */
export function commandPrograms(command: string): string[] | null {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const next = command[i + 1];
    if (quote === "'") {
      if (c === "'") quote = null;
      current += c;
      continue;
    }
    if (c === '\\') {
      current += c + (next ?? '');
      i++;
      continue;
    }
    if (c === '`' || (c === '$' && next === '(')) return null;
    if (quote === '"') {
      if (c === '"') quote = null;
      current += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      current += c;
      continue;
    }
    if ((c === '<' || c === '>') && next === '(') return null;
    const redirection = c === '&' && (command[i - 1] === '>' || command[i - 1] === '<' || next === '>');
    if (!redirection && (c === ';' || c === '&' || c === '|' || c === '\n' || c === '\r')) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.map(firstWord).filter((program) => program !== '');
}

type Waiter = { request: ApprovalRequest; resolve: (decision: ApprovalDecision) => void };

/**
 * Holds the approval cards that wait for the person. A stop of the task answers them all as
 * denied, so the loop never hangs on a card nobody will click.
 */
export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiter>();

  get pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  ask(request: Omit<ApprovalRequest, 'id'>, signal: AbortSignal): { request: ApprovalRequest; decision: Promise<ApprovalDecision> } {
    const full: ApprovalRequest = { ...request, id: randomUUID() };
    const decision = new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) return resolve({ decision: 'deny', reason: 'The task was stopped.' });
      const onAbort = () => this.answer(full.id, { decision: 'deny', reason: 'The task was stopped.' });
      // The listener goes with the card: a long task asks many times on the same signal.
      this.waiting.set(full.id, {
        request: full,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return { request: full, decision };
  }

  /** Returns false when no card with that id is waiting (already answered, or stale). */
  answer(id: string, decision: ApprovalDecision): boolean {
    const waiter = this.waiting.get(id);
    if (!waiter) return false;
    this.waiting.delete(id);
    waiter.resolve(decision);
    return true;
  }
}
