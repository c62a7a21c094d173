import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalMode, ApprovalRequest, ToolKind } from '../../common/approvals';

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
 * `npm …`); for a file change, every file change in the workspace.
 */
export function sessionRuleFor(name: string, input: unknown): string {
  if (toolKind(name) === 'file_change') return 'file_change';
  const command = typeof input === 'object' && input !== null ? (input as { command?: unknown }).command : undefined;
  const program = typeof command === 'string' ? (command.trim().split(/\s+/)[0] ?? '') : '';
  return program ? `command:${program}` : `tool:${name}`;
}

/** Pure: whether a call must wait for the person under this mode and the session's rules. */
export function needsApproval(mode: ApprovalMode, name: string, input: unknown, sessionRules: ReadonlySet<string>): boolean {
  const kind = toolKind(name);
  if (kind === 'read' || kind === 'plan' || mode === 'full_auto') return false;
  if (kind === 'file_change' && mode === 'auto_edits') return false;
  return !sessionRules.has(sessionRuleFor(name, input));
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
      this.waiting.set(full.id, { request: full, resolve });
      signal.addEventListener('abort', () => this.answer(full.id, { decision: 'deny', reason: 'The task was stopped.' }), { once: true });
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
