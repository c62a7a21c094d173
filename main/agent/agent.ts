import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentState, TaskOutcome } from '../../common/agentEvents';
import type { ApprovalMode, ApprovalRequest } from '../../common/approvals';
import type { ChangeRecorder } from '../changes/recorder';
import type { ToolResult } from '../tools/types';
import { ApprovalBroker, needsApproval, sessionRuleFor, toolKind } from './approvals';
import { previewFileChange } from './changePreview';
import { unfinishedItems } from '../../common/plan/render';
import { completionGate } from '../../common/plan/rules';
import type { ModelSettings } from '../settings/modelSettings';
import type { WorkspaceSession } from '../session/workspaceSession';
import { normalizeHistory, withHistoryCacheBreakpoint } from './history';
import { LiveOutput } from './liveOutput';
import { createModelClient, ModelError, streamRound } from './modelClient';
import { earlierPlanNote, takeReminder, takeUserPlanUpdate } from './planMessages';
import { buildSystemPrompt } from './prompt';
import { createTodoTool } from './todoTool';
import { runToolCall, toolDefinitions, toolResultBlock, type AgentTool } from './toolRunner';

export const CANCELLED_RESULT = 'Cancelled: the person stopped the task before this tool call finished. Anything it started was killed.';
const MAX_TOKENS_CONTINUES = 3;

export interface AgentOptions {
  session: WorkspaceSession;
  /** Read at the start of every task, so changed settings take effect on the next one. */
  settings: () => ModelSettings;
  /** The workspace tools (files, bash); the `todo` tool is added here. */
  tools: readonly AgentTool[];
  createClient?: (settings: ModelSettings) => Anthropic;
  /** Read before every tool call. Default full_auto: a headless run has no one to ask. */
  approvalMode?: () => ApprovalMode;
  /** Keeps what each task did to files, for the Changes view and undo. */
  changes?: ChangeRecorder;
}

export interface QueuedMessage {
  id: string;
  text: string;
}

export interface TaskResult {
  taskId: string;
  outcome: TaskOutcome;
  message?: string;
}

type Listener = (event: AgentEvent) => void;

/**
 * The agent loop: one task is what one message from the person starts. Each round streams the
 * model's answer, runs its tool calls, and answers them in ONE user message whose content starts
 * with every tool_result and only then carries Keel's own text (plan updates, the reminder).
 * The plan rules of PLAN-RULES.md are decided by the pure functions in common/plan/rules.ts.
 */
export class Agent {
  private readonly listeners = new Set<Listener>();
  private controller: AbortController | null = null;
  private readonly tools: AgentTool[];
  private currentState: AgentState = 'idle';
  private currentTask: Promise<TaskResult> | null = null;
  private queue: QueuedMessage[] = [];
  readonly approvals = new ApprovalBroker();

  constructor(private readonly options: AgentOptions) {
    this.tools = [...options.tools, createTodoTool(options.session)];
  }

  get running(): boolean {
    return this.controller !== null;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private setState(state: AgentState): void {
    this.currentState = state;
    this.emit({ type: 'state', state });
  }

  get state(): AgentState {
    return this.currentState;
  }

  get queued(): QueuedMessage[] {
    return [...this.queue];
  }

  /**
   * A message sent while the agent works: it waits, shown as queued, and is given to the model
   * at its next step, after the tool results, like a plan edit.
   */
  enqueue(text: string): QueuedMessage {
    if (!this.controller) throw new Error('No task is running: send the message as a new task instead.');
    const message = { id: randomUUID(), text };
    this.queue.push(message);
    this.options.session.recordTask({ event: 'queued', id: message.id, text });
    this.emit({ type: 'message_queued', ...message });
    return message;
  }

  /** Moves every queued message into the next user message. */
  private takeQueue(pending: ContentBlockParam[]): boolean {
    if (this.queue.length === 0) return false;
    const taken = this.queue;
    this.queue = [];
    for (const message of taken) pending.push({ type: 'text', text: message.text });
    this.options.session.recordTask({ event: 'queue_taken', ids: taken.map((m) => m.id) });
    this.emit({ type: 'message_taken', ids: taken.map((m) => m.id) });
    return true;
  }

  /** Stops the running task at once: the stream is aborted, the running command killed. */
  stop(): void {
    this.controller?.abort();
  }

  /** Stops the running task and waits until it has ended and its processes are gone. */
  async stopAndWait(): Promise<void> {
    this.stop();
    await this.currentTask;
  }

  async runTask(text: string): Promise<TaskResult> {
    return this.startTask(text).done;
  }

  /** Starts a task and returns at once with its id; `done` settles when it ends (it never rejects). */
  startTask(text: string): { taskId: string; done: Promise<TaskResult> } {
    if (this.controller) throw new Error('A task is already running. Stop it first, or wait for it to finish.');
    const controller = new AbortController();
    this.controller = controller;
    const taskId = randomUUID();
    const session = this.options.session;
    session.recordTask({ event: 'start', taskId, text });
    this.options.changes?.taskStarted(taskId, text);
    this.emit({ type: 'task_started', taskId, text });
    const done = this.finishTask(taskId, text, controller);
    this.currentTask = done;
    return { taskId, done };
  }

  private async finishTask(taskId: string, text: string, controller: AbortController): Promise<TaskResult> {
    const session = this.options.session;
    let result: TaskResult;
    try {
      result = await this.loop(taskId, text, controller.signal);
    } catch (error) {
      result = { taskId, outcome: 'error', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.controller = null;
    }
    if (this.queue.length > 0) {
      // A stop ends the task; messages that were still waiting are not sent, and the person is told.
      const dropped = this.queue;
      this.queue = [];
      this.emit({ type: 'message_dropped', ids: dropped.map((m) => m.id) });
    }
    const unfinished = result.outcome === 'stopped_unfinished' ? unfinishedItems(session.plan.items) : undefined;
    session.recordTask({ event: 'end', taskId, outcome: result.outcome, ...(result.message ? { message: result.message } : {}) });
    this.options.changes?.taskEnded(taskId);
    const stateFor: Record<TaskOutcome, AgentState> = {
      done: 'done',
      stopped_unfinished: 'stopped_unfinished',
      cancelled: 'cancelled',
      error: 'error',
      refused: 'error',
    };
    this.setState(stateFor[result.outcome]);
    this.emit({ type: 'task_finished', ...result, ...(unfinished ? { unfinished } : {}) });
    return result;
  }

  private async loop(taskId: string, text: string, signal: AbortSignal): Promise<TaskResult> {
    const { session } = this.options;
    const settings = this.options.settings();
    const plan = session.plan;

    // The finished plan of the last task stays in the history; this task starts with an empty one.
    if (plan.items.length > 0 && unfinishedItems(plan.items).length === 0) {
      plan.propose([], { source: 'agent' });
      session.markPlanSeen(plan.version);
    }
    let planTouched = false;
    const stopWatchingPlan = plan.onChange(() => (planTouched = true));

    try {
      const client = (this.options.createClient ?? createModelClient)(settings);
      const system = buildSystemPrompt({
        workspace: session.workspace,
        platform: process.platform,
        shell: process.platform === 'win32' ? 'PowerShell' : 'bash',
        date: new Date().toISOString().slice(0, 10),
        toolNames: this.tools.map((t) => t.name),
      });
      const tools = toolDefinitions(this.tools);

      const earlier = earlierPlanNote(session);
      let pending: ContentBlockParam[] = [{ type: 'text', text }, ...(earlier ? [earlier] : [])];
      let gateContinues = 0;
      let maxTokenContinues = 0;

      for (;;) {
        if (signal.aborted) return this.cancelled(taskId, pending);
        this.takeQueue(pending);
        this.addUserPlanUpdate(pending);
        session.appendMessage({ role: 'user', content: pending });
        pending = [];

        this.setState('thinking');
        let response: Message;
        try {
          response = await streamRound(
            client,
            {
              model: settings.model,
              max_tokens: settings.maxTokens,
              system,
              tools,
              messages: withHistoryCacheBreakpoint(normalizeHistory(session.messages)),
            },
            {
              onText: (delta) => this.emit({ type: 'text', delta }),
              onRetry: (attempt, reason) => this.emit({ type: 'stream_retry', attempt, reason }),
            },
            signal,
            settings,
          );
        } catch (error) {
          if (signal.aborted) return this.cancelled(taskId, []);
          if (error instanceof ModelError) return { taskId, outcome: 'error', message: error.message };
          throw error;
        }
        this.recordUsage(response);

        const content = response.content.filter((block) => !(block.type === 'text' && block.text.trim() === ''));
        if (content.length > 0) session.appendMessage({ role: 'assistant', content: content as ContentBlockParam[] });
        const calls = content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
        plan.recordRound(calls.some((call) => call.name === 'todo'));

        if (response.stop_reason === 'refusal') {
          return { taskId, outcome: 'refused', message: 'The model declined to go on with this request (stop reason: refusal).' };
        }

        if (calls.length > 0) {
          gateContinues = 0;
          // With max_tokens the last tool call may be cut off mid-input: it is answered, never run.
          const cut = response.stop_reason === 'max_tokens' ? calls.at(-1) : undefined;
          pending = await this.runCalls(calls, cut, signal);
          if (signal.aborted) return this.cancelled(taskId, pending);
          // The person's edit first: being shown it is a plan update, so it may make the reminder moot.
          this.addUserPlanUpdate(pending);
          const reminder = takeReminder(session, settings.reminderRounds);
          if (reminder) {
            pending.push(reminder);
            this.notice('reminder', reminder.text);
          }
          continue;
        }

        if (response.stop_reason === 'max_tokens') {
          if (++maxTokenContinues > MAX_TOKENS_CONTINUES) {
            return { taskId, outcome: 'error', message: `The answer hit the max_tokens limit (${settings.maxTokens}) ${MAX_TOKENS_CONTINUES + 1} times in a row. Raise max tokens in the settings.` };
          }
          const message = 'Your answer was cut off by the max_tokens limit. Continue exactly where it stopped.';
          pending = [{ type: 'text', text: message }];
          this.notice('max_tokens', message);
          continue;
        }

        // The person wrote while the model worked: their message comes before any verdict on the task.
        if (this.takeQueue(pending)) continue;

        const gate = completionGate({ items: plan.items, planTouchedThisTask: planTouched, continuesInARow: gateContinues, bound: settings.gateBound });
        if (gate.kind === 'done') return { taskId, outcome: 'done' };
        if (gate.kind === 'stop') {
          return {
            taskId,
            outcome: 'stopped_unfinished',
            message: `Stopped with an unfinished plan: the model ended its turn ${gateContinues + 1} times with ${gate.unfinished.length} item(s) still open.`,
          };
        }
        gateContinues++;
        pending = [{ type: 'text', text: gate.message }];
        this.notice('gate', gate.message);
      }
    } finally {
      stopWatchingPlan();
    }
  }

  private async runCalls(calls: ToolUseBlock[], cut: ToolUseBlock | undefined, signal: AbortSignal): Promise<ContentBlockParam[]> {
    const { session, changes } = this.options;
    const results: ContentBlockParam[] = [];
    for (const call of calls) {
      this.emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
      let result;
      if (signal.aborted) result = { content: CANCELLED_RESULT, isError: true };
      else if (call === cut) {
        result = { content: `This ${call.name} call was cut off by the max_tokens limit before its input was complete, so it was not run. Send it again with a smaller input (for a large file, write it in parts).`, isError: true };
      } else {
        const refusal = await this.askApproval(call, signal);
        if (refusal) {
          result = refusal;
          this.emit({ type: 'tool_result', id: call.id, name: call.name, content: result.content, isError: result.isError });
          results.push(toolResultBlock(call.id, result));
          continue;
        }
        this.setState('running_tool');
        const live = new LiveOutput((chunk, skipped) => this.emit({ type: 'tool_output', id: call.id, chunk, ...(skipped > 0 ? { skipped } : {}) }));
        result = await runToolCall(this.tools, call, {
          workspace: session.workspace,
          signal,
          onOutput: (chunk) => live.push(chunk),
          beforeFileChange: changes ? (file) => changes.beforeFileChange(file) : undefined,
        });
        live.flush();
        // Read back what the call left on disk, even when it was stopped midway.
        await changes?.afterToolCall();
        if (signal.aborted) result = { content: `${CANCELLED_RESULT}\n\n${result.content}`, isError: true };
      }
      this.emit({ type: 'tool_result', id: call.id, name: call.name, content: result.content, isError: result.isError });
      results.push(toolResultBlock(call.id, result));
    }
    return results;
  }

  /**
   * Waits for the person when the approval mode asks for this call. Returns the result to give the
   * model instead of running the tool (denied), or null to run it.
   */
  private async askApproval(call: ToolUseBlock, signal: AbortSignal): Promise<ToolResult | null> {
    const session = this.options.session;
    const mode = this.options.approvalMode?.() ?? 'full_auto';
    if (!needsApproval(mode, call.name, call.input, session.approvalRules)) return null;
    const fields = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    const request: Omit<ApprovalRequest, 'id'> = { toolUseId: call.id, tool: call.name, sessionRule: sessionRuleFor(call.name, call.input) };
    if (toolKind(call.name) === 'command' && typeof fields.command === 'string') request.command = fields.command;
    const preview = toolKind(call.name) === 'file_change' ? await previewFileChange(session.workspace, call.name, call.input).catch(() => null) : null;
    if (preview) Object.assign(request, preview);

    const asked = this.approvals.ask(request, signal);
    this.setState('waiting_approval');
    this.emit({ type: 'approval_requested', request: asked.request });
    const answer = await asked.decision;
    this.emit({ type: 'approval_resolved', id: asked.request.id, decision: answer.decision });
    session.recordTask({ event: 'approval', tool: call.name, toolUseId: call.id, decision: answer.decision });
    if (answer.decision === 'allow_session') session.allowForSession(request.sessionRule);
    if (answer.decision !== 'deny') return null;
    if (signal.aborted) return { content: CANCELLED_RESULT, isError: true };
    const reason = answer.reason?.trim();
    return {
      content: `The person denied this ${call.name} call; it was not run.${reason ? ` Their reason: ${reason}` : ''} Do not retry it as it was; adjust your approach${reason ? ' to their reason' : ''} or ask them.`,
      isError: true,
    };
  }

  /** Adds the `<plan-update source="user">` block when the person edited the plan since the model last saw it. */
  private addUserPlanUpdate(pending: ContentBlockParam[]): void {
    const update = takeUserPlanUpdate(this.options.session);
    if (!update) return;
    pending.push(update);
    this.notice('plan_update', update.text);
  }

  /** What Keel told the model on its own, shown in the chat and kept in the transcript. */
  private notice(kind: 'reminder' | 'gate' | 'plan_update' | 'max_tokens', message: string): void {
    this.options.session.transcript.append({ type: 'notice', kind, message, at: new Date().toISOString() });
    this.emit({ type: 'notice', kind, message });
  }

  /** A stopped task keeps a valid history: whatever was answered so far is saved, the rest normalised. */
  private cancelled(taskId: string, pending: ContentBlockParam[]): TaskResult {
    if (pending.length > 0) this.options.session.appendMessage({ role: 'user', content: pending });
    return { taskId, outcome: 'cancelled', message: 'Stopped by the person.' };
  }

  private recordUsage(response: Message): void {
    const u = response.usage;
    const round = {
      inputTokens: u.input_tokens ?? 0,
      outputTokens: u.output_tokens ?? 0,
      cacheReadTokens: u.cache_read_input_tokens ?? 0,
      cacheCreationTokens: u.cache_creation_input_tokens ?? 0,
    };
    this.options.session.recordUsage(round);
    this.emit({ type: 'usage', round, session: { ...this.options.session.usage } });
  }
}
