import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ApprovalDecision, ApprovalMode, ApprovalRequest } from '../../common/approvals';
import type { AgentTool } from '../agent/toolRunner';
import type { WorkspaceSession } from '../session/workspaceSession';
import { ApprovalBroker } from './approvalBroker';
import {
  alwaysAsksBecause,
  commandOfCall,
  judgeCommand,
  kindOfCall,
  leavesSandbox,
  needsApproval,
  SANDBOX_RULE,
  sessionRuleFor,
  type ToolCall,
} from './approvals';
import { previewFileChange } from './changePreview';
import { hostOfNetworkCall } from './networkApproval';
import { shellKindFor } from './shellWords';

export interface ApprovalGateOptions {
  /** Read before every tool call. Default full_auto: a headless run has no one to ask. */
  approvalMode?: () => ApprovalMode;
  /** Rules allowed for every session (the settings' MCP allow list). */
  alwaysAllowed?: () => Iterable<string>;
  /** "Always allow" on an approval card: keep the rule in the settings. */
  allowAlways?: (rule: string) => void;
  /** Whether commands run in the OS sandbox now (its start-up check passed). */
  sandboxed?: () => boolean;
  /** Where the cards wait: a helper's go to the main agent's, so the person answers them in one place. */
  broker?: ApprovalBroker;
  /** The helper whose gate this is: its cards say so (`ApprovalRequest.helper`). */
  helper?: string;
}

/** What the gate tells the loop while a card waits. */
export interface GateEvents {
  waiting(request: ApprovalRequest): void;
  answered(id: string, decision: ApprovalDecision['decision']): void;
}

/** Whether the call may run; when denied, the person's reason, if they gave one. */
export type GateVerdict = { run: true } | { run: false; reason?: string; refusal?: string };

/** What the model reads when Full auto refuses a command that asked to leave the sandbox. */
export const LEAVE_REFUSED =
  "Not run: this command asked to run outside the sandbox (leave_sandbox), and in Full auto nothing leaves the sandbox; it was not retried unsandboxed. Run it without leave_sandbox, inside the sandbox's limits, or ask the person to run it.";

type GateSession = Pick<WorkspaceSession, 'workspace' | 'approvalRules' | 'allowForSession' | 'recordTask'>;

/**
 * Decides, before each tool call, whether the person must be asked under the approval mode and
 * the session's rules, builds the card (the command and why it always asks, the diff of a file
 * change, the MCP server and arguments), waits for the answer and keeps an "allow" rule.
 */
export class ApprovalGate {
  readonly broker: ApprovalBroker;

  constructor(
    private readonly session: GateSession,
    private readonly options: ApprovalGateOptions = {},
  ) {
    this.broker = options.broker ?? new ApprovalBroker();
  }

  /** The card this call needs, or null when it goes ahead without asking. */
  async requestFor(call: ToolUseBlock, tool: AgentTool | undefined): Promise<Omit<ApprovalRequest, 'id'> | null> {
    const { session } = this;
    const mode = this.options.approvalMode?.() ?? 'full_auto';
    const shell = shellKindFor(process.platform);
    const judgedCall: ToolCall = { name: call.name, kind: kindOfCall(call.name, tool), input: call.input };
    const command = mode === 'full_auto' ? undefined : commandOfCall(judgedCall);
    // The kept "always allow" rules are read from the person's settings, so only when a rule can matter.
    const rulesNow = (): ReadonlySet<string> => {
      const always = [...(this.options.alwaysAllowed?.() ?? [])];
      return always.length > 0 ? new Set([...session.approvalRules, ...always]) : session.approvalRules;
    };
    const leaving = judgedCall.kind === 'command' && leavesSandbox(call.input);
    const sandboxed = judgedCall.kind === 'command' && !leaving && (this.options.sandboxed?.() ?? false);
    if (leaving && mode !== 'full_auto' && typeof (call.input as { command?: unknown }).command === 'string') {
      // Leaving the sandbox asks every time, with its own card: no rule covers it.
      return {
        toolUseId: call.id,
        tool: call.name,
        sessionRule: sessionRuleFor(judgedCall, shell),
        command: (call.input as { command: string }).command,
        alwaysAsks: { kind: 'leaves_sandbox', detail: 'unsandboxed' },
      };
    }
    // The sandbox confines what the judge of the command line could only guess at.
    if (sandboxed) {
      if (mode === 'full_auto' || rulesNow().has(SANDBOX_RULE)) return null;
      return {
        toolUseId: call.id,
        tool: call.name,
        sessionRule: SANDBOX_RULE,
        command: String((call.input as { command?: unknown }).command ?? ''),
        sandboxed: true,
      };
    }
    // Full auto asks about nothing but a network call's host (which a kept rule may list).
    if (mode === 'full_auto' && judgedCall.kind !== 'network') return null;
    const judged = command === undefined ? undefined : await judgeCommand(command, { workspace: session.workspace, shell });
    if (!needsApproval(mode, judgedCall, rulesNow(), judged)) return null;
    const fields = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    const request: Omit<ApprovalRequest, 'id'> = { toolUseId: call.id, tool: call.name, sessionRule: sessionRuleFor(judgedCall, shell) };
    const mcp = tool?.mcp;
    if (mcp)
      Object.assign(request, {
        mcp: { server: mcp.server, tool: mcp.tool, arguments: JSON.stringify(call.input, null, 2).slice(0, 20_000) },
        serverRule: mcp.serverRule,
      });
    else if (judgedCall.kind === 'command' && typeof fields.command === 'string') request.command = fields.command;
    const host = judgedCall.kind === 'network' ? hostOfNetworkCall(call.input) : null;
    if (host !== null && typeof fields.url === 'string') request.network = { url: fields.url.slice(0, 8000), host };
    const alwaysAsks = alwaysAsksBecause(judged);
    if (alwaysAsks) request.alwaysAsks = alwaysAsks;
    const preview = judgedCall.kind === 'file_change' ? await previewFileChange(session.workspace, call.name, call.input).catch(() => null) : null;
    if (preview) Object.assign(request, preview);
    return request;
  }

  /** Waits for the person when this call needs them; a stop of the task answers the card as denied. */
  async check(call: ToolUseBlock, tool: AgentTool | undefined, signal: AbortSignal, events: GateEvents): Promise<GateVerdict> {
    if ((this.options.approvalMode?.() ?? 'full_auto') === 'full_auto' && kindOfCall(call.name, tool) === 'command' && leavesSandbox(call.input)) {
      return { run: false, refusal: LEAVE_REFUSED };
    }
    const request = await this.requestFor(call, tool);
    if (!request) return { run: true };
    const asked = this.broker.ask(this.options.helper ? { ...request, helper: this.options.helper } : request, signal);
    events.waiting(asked.request);
    const answer = await asked.decision;
    events.answered(asked.request.id, answer.decision);
    this.session.recordTask({ event: 'approval', tool: call.name, toolUseId: call.id, decision: answer.decision });
    if (answer.decision === 'allow_session') {
      const rule = answer.scope === 'server' && request.serverRule ? request.serverRule : request.sessionRule;
      if (answer.always && this.options.allowAlways) this.options.allowAlways(rule);
      else this.session.allowForSession(rule);
    }
    if (answer.decision !== 'deny') return { run: true };
    const reason = answer.reason?.trim();
    return reason ? { run: false, reason } : { run: false };
  }
}
