import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentState, TaskOutcome } from '../../common/agentEvents';
import type { ApprovalMode, ApprovalRequest } from '../../common/approvals';
import type { ChangeRecorder } from '../changes/recorder';
import type { ToolResult } from '../tools/types';
import { alwaysAsksBecause, ApprovalBroker, commandOfCall, judgeCommand, needsApproval, sessionRuleFor, toolKind } from './approvals';
import { shellKindFor } from './shellWords';
import { previewFileChange } from './changePreview';
import { unfinishedItems } from '../../common/plan/render';
import { todoCallStep } from '../../common/plan/callStep';
import { renderOverrides } from '../../common/plan/overrides';
import { completionGate } from '../../common/plan/rules';
import type { ModelSettings } from '../settings/modelSettings';
import type { NoticeExtra, WorkspaceSession } from '../session/workspaceSession';
import type { NoticeKind } from '../session/transcriptRecords';
import { normalizeHistory, withHistoryCacheBreakpoint } from './history';
import { LiveOutput } from './liveOutput';
import { createModelClient, ModelError, streamRound } from './modelClient';
import { earlierPlanNote, takeReminder, takeUserPlanUpdate } from './planMessages';
import { shellDisplayName } from '../tools/bash/shell';
import { buildSystemPrompt } from './prompt';
import { ContextKeeper, type RoomContext } from './compaction/contextKeeper';
import { isContextOverflow } from './compaction/contextTracker';
import { readInstructions } from './instructions';
import type { CompactionInfo, ContextUsage } from '../../common/contextWindow';
import { createTodoTool } from './sessionTodoTool';
import { resultPictures, runToolCall, toolDefinitions, toolResultBlock, type AgentTool } from './toolRunner';
import { chatExtrasOf, type MessageAttachments } from './messageAttachments';

/** The task's end when the service refused the size twice: what happened and what to do. */
function tooLongMessage(detail: string, window: number, room: readonly CompactionInfo[]): string {
  const done = room.some((info) => info.stage === 'summarized')
    ? 'Keel set the conversation aside (the plan and the transcript are kept) so the next message has room'
    : room.length > 0
      ? 'Keel cleared every tool result so the next message has room'
      : 'Nothing more could be cleared';
  return `The conversation is too long for the model even after making room (${detail.replace(/^The API rejected the request \(400\): /, '')}). ${done}: send your message again, or start a new session. If the model's window is smaller than ${window.toLocaleString('en')} tokens, set its real size as the context window in Settings (contextWindow in the settings file, or KEEL_CONTEXT_WINDOW).`;
}

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
  /** The data folder: its AGENTS.md applies to every workspace. */
  dataDir?: string;
  /** Tools that come and go (MCP servers), read before every round. */
  moreTools?: (signal: AbortSignal) => Promise<readonly AgentTool[]>;
  /** Rules allowed for every session (the settings' MCP allow list). */
  alwaysAllowed?: () => Iterable<string>;
  /** "Always allow" on an approval card: keep the rule in the settings. */
  allowAlways?: (rule: string) => void;
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
 * The plan rules of docs/plan-rules.md are decided by the pure functions in common/plan/rules.ts.
 */
export class Agent {
  private readonly listeners = new Set<Listener>();
  private controller: AbortController | null = null;
  private readonly tools: AgentTool[];
  private currentState: AgentState = 'idle';
  private currentTask: Promise<TaskResult> | null = null;
  private queue: QueuedMessage[] = [];
  /** The plan's open steps when the last task ended (undefined before one has). */
  lastOpenSteps: number | undefined;
  /** What queued messages carry for the model besides their text (pictures, mentioned files). */
  private readonly queuedBlocks = new Map<string, ContentBlockParam[]>();
  readonly approvals = new ApprovalBroker();
  /** Keeps every request inside the model's context window. */
  readonly context: ContextKeeper;
  /** The message that started the latest task: repeated after a summary. */
  private lastTask: string | null = null;
  /** A "Compact now" under way: a task sent meanwhile waits for it. */
  private compacting: { controller: AbortController; done: Promise<unknown> } | null = null;

  constructor(private readonly options: AgentOptions) {
    this.tools = [...options.tools, createTodoTool(options.session)];
    this.context = new ContextKeeper(options.session, (info) => this.compacted(info));
    this.context.setPrefix(this.systemPrompt(), toolDefinitions(this.tools));
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
  enqueue(text: string, attachments?: MessageAttachments): QueuedMessage {
    if (!this.controller) throw new Error('No task is running: send the message as a new task instead.');
    const message = { id: randomUUID(), text };
    this.queue.push(message);
    if (attachments?.blocks.length) this.queuedBlocks.set(message.id, attachments.blocks);
    const extras = chatExtrasOf(attachments);
    this.options.session.recordTask({ event: 'queued', id: message.id, text, ...extras });
    this.emit({ type: 'message_queued', ...message, ...extras });
    return message;
  }

  /** Moves every queued message into the next user message. */
  private takeQueue(pending: ContentBlockParam[]): boolean {
    if (this.queue.length === 0) return false;
    const taken = this.queue;
    this.queue = [];
    for (const message of taken) {
      pending.push(...textBlock(message.text), ...(this.queuedBlocks.get(message.id) ?? []));
      this.queuedBlocks.delete(message.id);
    }
    this.options.session.recordTask({ event: 'queue_taken', ids: taken.map((m) => m.id) });
    this.emit({ type: 'message_taken', ids: taken.map((m) => m.id) });
    return true;
  }

  /** Stops the running task at once: the stream is aborted, the running command killed. */
  stop(): void {
    this.controller?.abort();
    this.compacting?.controller.abort();
  }

  /** Stops the running task and waits until it has ended and its processes are gone. */
  async stopAndWait(): Promise<void> {
    this.stop();
    await this.currentTask;
  }

  async runTask(text: string, attachments?: MessageAttachments): Promise<TaskResult> {
    return this.startTask(text, attachments).done;
  }

  /** Starts a task and returns at once with its id; `done` settles when it ends (it never rejects). */
  startTask(text: string, attachments?: MessageAttachments): { taskId: string; done: Promise<TaskResult> } {
    if (this.controller) throw new Error('A task is already running. Stop it first, or wait for it to finish.');
    const controller = new AbortController();
    this.controller = controller;
    const taskId = randomUUID();
    const session = this.options.session;
    const extras = chatExtrasOf(attachments);
    session.recordTask({ event: 'start', taskId, text, ...extras });
    this.options.changes?.taskStarted(taskId, text);
    this.emit({ type: 'task_started', taskId, text, ...extras });
    const done = this.finishTask(taskId, text, controller, attachments?.blocks ?? []);
    this.currentTask = done;
    return { taskId, done };
  }

  private async finishTask(taskId: string, text: string, controller: AbortController, blocks: ContentBlockParam[]): Promise<TaskResult> {
    const session = this.options.session;
    let result: TaskResult;
    try {
      result = await this.loop(taskId, text, controller.signal, blocks);
    } catch (error) {
      result = { taskId, outcome: 'error', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.controller = null;
    }
    if (this.queue.length > 0) {
      // A stop ends the task; messages that were still waiting are not sent, and the person is told.
      const dropped = this.queue;
      this.queue = [];
      this.queuedBlocks.clear();
      this.emit({ type: 'message_dropped', ids: dropped.map((m) => m.id) });
    }
    const unfinished = result.outcome === 'stopped_unfinished' ? unfinishedItems(session.plan.items) : undefined;
    // The plan's open steps at the end, so the session list can tell "done" from "plan unfinished".
    const openSteps = unfinishedItems(session.plan.items).length;
    session.recordTask({ event: 'end', taskId, outcome: result.outcome, openSteps, ...(result.message ? { message: result.message } : {}) });
    this.options.changes?.taskEnded(taskId);
    // A stopped or failed task is usually continued: the person's steps stay theirs until one is done.
    if (result.outcome === 'done') session.plan.endTask();
    const stateFor: Record<TaskOutcome, AgentState> = {
      done: 'done',
      stopped_unfinished: 'stopped_unfinished',
      cancelled: 'cancelled',
      error: 'error',
      refused: 'error',
    };
    this.setState(stateFor[result.outcome]);
    this.lastOpenSteps = openSteps;
    this.emit({ type: 'task_finished', ...result, openSteps, ...(unfinished ? { unfinished } : {}) });
    return result;
  }

  private async loop(taskId: string, text: string, signal: AbortSignal, blocks: ContentBlockParam[]): Promise<TaskResult> {
    const { session } = this.options;
    const settings = this.options.settings();
    const plan = session.plan;
    // A "Compact now" still running rewrites the history: start from its result.
    await this.compacting?.done.catch(() => undefined);

    // The finished plan of the last task stays in the history; this task starts with an empty one.
    if (plan.items.length > 0 && unfinishedItems(plan.items).length === 0) {
      plan.propose([], { source: 'agent' });
      session.markPlanSeen(plan.version);
    }
    let planTouched = false;
    const stopWatchingPlan = plan.onChange(() => (planTouched = true));

    try {
      const client = (this.options.createClient ?? createModelClient)(settings);
      // Read at the start of each task, so an edited AGENTS.md applies to the next one.
      const system = this.systemPrompt();
      this.context.setPrefix(system, toolDefinitions(this.tools));
      this.lastTask = text;
      const room: RoomContext = { client, settings, task: text, signal };

      const earlier = earlierPlanNote(session);
      let pending: ContentBlockParam[] = [...textBlock(text), ...blocks, ...(earlier ? [earlier] : [])];
      let gateContinues = 0;
      let maxTokenContinues = 0;

      for (;;) {
        if (signal.aborted) return this.cancelled(taskId, pending);
        this.takeQueue(pending);
        this.addUserPlanUpdate(pending);
        session.appendMessage({ role: 'user', content: pending });
        pending = [];

        this.setState('thinking');
        const roundTools = [...this.tools, ...((await this.options.moreTools?.(signal)) ?? [])];
        if (signal.aborted) return this.cancelled(taskId, []);
        const tools = toolDefinitions(roundTools);
        this.context.setPrefix(system, tools);
        let response: Message;
        for (let refusals = 0; ;) {
          try {
            await this.context.beforeRequest(room);
            const sent = session.messages.length;
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
            this.context.observe(response.usage, sent);
            break;
          } catch (error) {
            if (signal.aborted) return this.cancelled(taskId, []);
            if (error instanceof ModelError && isContextOverflow(error.message)) {
              // The service refused the size: make room and try once more; never leave the session too big.
              if (++refusals === 1) {
                await this.context.afterRefusal(room, error.message, this.context.requestTokens());
                continue;
              }
              const madeRoom = this.context.lastResort(settings, text);
              this.emitContext(settings);
              return { taskId, outcome: 'error', message: tooLongMessage(error.message, settings.contextWindow, madeRoom) };
            }
            if (error instanceof ModelError) return { taskId, outcome: 'error', message: error.message };
            throw error;
          }
        }
        this.recordUsage(response);
        this.emitContext(settings);

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
          pending = await this.runCalls(calls, cut, signal, roundTools);
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
            return {
              taskId,
              outcome: 'error',
              message: `The answer hit the max_tokens limit (${settings.maxTokens}) ${MAX_TOKENS_CONTINUES + 1} times in a row. Raise max tokens in the settings.`,
            };
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

  private async runCalls(calls: ToolUseBlock[], cut: ToolUseBlock | undefined, signal: AbortSignal, tools: readonly AgentTool[]): Promise<ContentBlockParam[]> {
    const { session, changes } = this.options;
    const results: ContentBlockParam[] = [];
    for (const call of calls) {
      this.emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
      let result;
      let planVersion: number | undefined;
      if (signal.aborted) result = { content: CANCELLED_RESULT, isError: true };
      else if (call === cut) {
        result = {
          content: `This ${call.name} call was cut off by the max_tokens limit before its input was complete, so it was not run. Send it again with a smaller input (for a large file, write it in parts).`,
          isError: true,
        };
      } else {
        const refusal = await this.askApproval(call, signal, tools);
        if (refusal) {
          result = refusal;
          this.emit({ type: 'tool_result', id: call.id, name: call.name, content: result.content, isError: result.isError });
          results.push(toolResultBlock(call.id, result));
          continue;
        }
        this.setState('running_tool');
        planVersion = session.plan.version;
        const live = new LiveOutput((chunk, skipped) => this.emit({ type: 'tool_output', id: call.id, chunk, ...(skipped > 0 ? { skipped } : {}) }));
        result = await runToolCall(tools, call, {
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
      const pictures = resultPictures(result);
      const images = pictures.length ? { images: pictures.map((image) => session.keepImage(image)) } : {};
      const step = planVersion === undefined ? null : todoCallStep(session.plan.history, planVersion);
      this.emit({ type: 'tool_result', id: call.id, name: call.name, content: result.content, isError: result.isError, ...images, ...step });
      results.push(toolResultBlock(call.id, result));
      if (planVersion !== undefined) this.noticeOverrides(planVersion);
    }
    return results;
  }

  /**
   * Waits for the person when the approval mode asks for this call. Returns the result to give the
   * model instead of running the tool (denied), or null to run it.
   */
  private async askApproval(call: ToolUseBlock, signal: AbortSignal, tools: readonly AgentTool[]): Promise<ToolResult | null> {
    const session = this.options.session;
    const mode = this.options.approvalMode?.() ?? 'full_auto';
    const shell = shellKindFor(process.platform);
    const command = mode === 'full_auto' ? undefined : commandOfCall(call.name, call.input);
    const judged = command === undefined ? undefined : await judgeCommand(command, { workspace: session.workspace, shell });
    const always = [...(this.options.alwaysAllowed?.() ?? [])];
    const rules = always.length > 0 ? new Set([...session.approvalRules, ...always]) : session.approvalRules;
    if (!needsApproval(mode, call.name, call.input, rules, judged)) return null;
    const fields = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
    const request: Omit<ApprovalRequest, 'id'> = { toolUseId: call.id, tool: call.name, sessionRule: sessionRuleFor(call.name, call.input, shell) };
    const mcp = tools.find((t) => t.name === call.name)?.mcp;
    if (mcp)
      Object.assign(request, {
        mcp: { server: mcp.server, tool: mcp.tool, arguments: JSON.stringify(call.input, null, 2).slice(0, 20_000) },
        serverRule: mcp.serverRule,
      });
    else if (toolKind(call.name) === 'command' && typeof fields.command === 'string') request.command = fields.command;
    const alwaysAsks = alwaysAsksBecause(judged);
    if (alwaysAsks) request.alwaysAsks = alwaysAsks;
    const preview = toolKind(call.name) === 'file_change' ? await previewFileChange(session.workspace, call.name, call.input).catch(() => null) : null;
    if (preview) Object.assign(request, preview);

    const asked = this.approvals.ask(request, signal);
    this.setState('waiting_approval');
    this.emit({ type: 'approval_requested', request: asked.request });
    const answer = await asked.decision;
    this.emit({ type: 'approval_resolved', id: asked.request.id, decision: answer.decision });
    session.recordTask({ event: 'approval', tool: call.name, toolUseId: call.id, decision: answer.decision });
    if (answer.decision === 'allow_session') {
      const rule = answer.scope === 'server' && request.serverRule ? request.serverRule : request.sessionRule;
      if (answer.always && this.options.allowAlways) this.options.allowAlways(rule);
      else session.allowForSession(rule);
    }
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
    const { plan } = this.options.session;
    const seen = this.options.session.agentSeenVersion;
    const update = takeUserPlanUpdate(this.options.session);
    if (!update) return;
    pending.push(update);
    // The window shows the person's edit as a diff in its own language, not the model's wire text.
    this.notice('plan_update', update.text, { plan: { before: plan.getVersion(seen)?.items ?? [], after: plan.items } });
  }

  private systemPrompt() {
    const session = this.options.session;
    return buildSystemPrompt({
      workspace: session.workspace,
      platform: process.platform,
      shell: shellDisplayName(),
      date: new Date().toISOString().slice(0, 10),
      toolNames: this.tools.map((t) => t.name),
      instructions: readInstructions(session.workspace, this.options.dataDir).text,
    });
  }

  /** How full the window is, as the status bar's meter shows it. */
  contextUsage(settings = this.options.settings()): ContextUsage {
    return this.context.usage(settings);
  }

  private emitContext(settings: ModelSettings): void {
    this.emit({ type: 'context', ...this.context.usage(settings) });
  }

  private compacted(info: CompactionInfo): void {
    this.emit({ type: 'compaction', ...info });
  }

  /**
   * "Compact now": summarises the older conversation between tasks. Resolves with what was done
   * (empty when there was nothing to compact).
   */
  async compactNow(): Promise<CompactionInfo[]> {
    if (this.controller || this.compacting) throw new Error('A task is running: wait for it to finish or stop it, then compact.');
    const controller = new AbortController();
    const run = async () => {
      const settings = this.options.settings();
      const client = (this.options.createClient ?? createModelClient)(settings);
      this.context.setPrefix(this.systemPrompt(), toolDefinitions(this.tools));
      const infos = await this.context.now({ client, settings, task: this.lastTask, signal: controller.signal });
      this.emitContext(settings);
      return infos;
    };
    const compacting = run();
    this.compacting = { controller, done: compacting };
    try {
      return await compacting;
    } finally {
      this.compacting = null;
    }
  }

  /** What Keel told the model on its own, shown in the chat and kept in the transcript. */
  private notice(kind: NoticeKind, message: string, extra: NoticeExtra = {}): void {
    this.options.session.recordNotice(kind, message, extra);
    this.emit({ type: 'notice', kind, message, ...extra });
  }

  /** The person is told, in the chat, where the agent's accepted plan undid their last edit. */
  private noticeOverrides(versionBefore: number): void {
    const current = this.options.session.plan.current;
    if (!current || current.version === versionBefore || current.source !== 'agent' || !current.overrides) return;
    this.notice('plan_override', renderOverrides(current.overrides), { overrides: current.overrides });
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

/** The person's words as a block; none for a message that is only pictures (the API refuses empty text). */
function textBlock(text: string): ContentBlockParam[] {
  return text.trim() === '' ? [] : [{ type: 'text', text }];
}
