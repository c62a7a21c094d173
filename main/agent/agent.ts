import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentState, TaskOutcome } from '../../common/agentEvents';
import type { CompactionInfo, ContextUsage } from '../../common/contextWindow';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import type { TaskErrorCode } from '../../common/errorCodes';
import { renderOverrides } from '../../common/plan/overrides';
import { unfinishedItems } from '../../common/plan/render';
import { completionGate } from '../../common/plan/rules';
import type { ApprovalBroker } from '../approvals/approvalBroker';
import type { PlanView } from '../plan/planView';
import { ApprovalGate } from '../approvals/approvalGate';
import type { ModelSettings } from '../settings/modelSettings';
import type { NoticeKind } from '../session/transcriptRecords';
import type { NoticeExtra } from '../session/workspaceSession';
import { shellDisplayName } from '../tools/bash/shell';
import type { AgentOptions } from './agentOptions';
import { ContextKeeper, type RoomContext } from './compaction/contextKeeper';
import { isContextOverflow, parseOverflow } from './compaction/contextTracker';
import { normalizeHistory, withHistoryCacheBreakpoint } from './history';
import { readInstructions } from './instructions';
import { Mailbox, textBlock, type QueuedMessage } from './mailbox';
import { chatExtrasOf, type MessageAttachments } from './messageAttachments';
import { createModelClient, ModelError } from './modelClient';
import { MAX_TOKENS_CONTINUE, maxTokensMessage, REFUSED_MESSAGE, STOPPED_MESSAGE, tooLongMessage, unfinishedPlanMessage } from './modelTexts';
import { earlierPlanNote, takeReminder, takeUserPlanUpdate } from './planMessages';
import { buildSystemPrompt } from './prompt';
import { runRoundCalls } from './roundCalls';
import { createTodoTool } from './sessionTodoTool';
import { toolDefinitions, type AgentTool } from './toolRunner';

export type { AgentOptions } from './agentOptions';
export type { QueuedMessage } from './mailbox';
import { builtinProfile, type ModelProfile } from '../models/modelProfile';
import type { Effort } from '../../common/modelCapabilities';
import { requestRound } from './modelRequest';

const MAX_TOKENS_CONTINUES = 3;
const MAX_PAUSE_CONTINUES = 10;

export interface TaskResult {
  taskId: string;
  outcome: TaskOutcome;
  message?: string;
  /** With `error`: why, for whoever branches on it (the message is main's English). */
  errorCode?: TaskErrorCode;
}

/**
 * The agent loop: one task is what one message from the person starts. Each round streams the
 * model's answer, runs its tool calls, and answers them in ONE user message whose content starts
 * with every tool_result and only then carries Keel's own text (plan updates, the reminder).
 * The plan rules of docs/plan-rules.md are decided by the pure functions in common/plan/rules.ts.
 */
export class Agent {
  private readonly events = new Emitter<[AgentEvent]>();
  private controller: AbortController | null = null;
  private readonly tools: AgentTool[];
  private currentState: AgentState = 'idle';
  private currentTask: Promise<TaskResult> | null = null;
  private readonly mailbox = new Mailbox();
  /** The plan's open steps when the last task ended (undefined before one has). */
  lastOpenSteps: number | undefined;
  private readonly gate: ApprovalGate;
  /** What this agent's model has seen of the plan. */
  readonly planView: PlanView;
  /** Keeps every request inside the model's context window. */
  readonly context: ContextKeeper;
  /** The message that started the latest task: repeated after a summary. */
  private lastTask: string | null = null;
  /** A "Compact now" under way: a task sent meanwhile waits for it. */
  private compacting: { controller: AbortController; done: Promise<unknown> } | null = null;
  /** The effort chosen in the status bar for this session (the settings' applies until then). */
  effort: Effort | undefined;

  constructor(private readonly options: AgentOptions) {
    this.planView = options.planView ?? options.session.planView;
    this.tools = [...options.tools, createTodoTool(this.planView)];
    this.gate = new ApprovalGate(options.session, { ...options, sandboxed: () => options.sandbox?.status.state === 'on' });
    this.context = new ContextKeeper(options.session, (info) => this.compacted(info));
    this.context.setPrefix(this.systemPrompt(), toolDefinitions(this.tools));
  }

  /** The approval cards waiting for the person. */
  get approvals(): ApprovalBroker {
    return this.gate.broker;
  }

  get running(): boolean {
    return this.controller !== null;
  }

  on(listener: (event: AgentEvent) => void): Disposable {
    return this.events.on(listener);
  }

  private emit(event: AgentEvent): void {
    this.events.fire(event);
  }

  private setState(state: AgentState): void {
    this.currentState = state;
    this.emit({ type: 'state', state });
  }

  get state(): AgentState {
    return this.currentState;
  }

  get queued(): QueuedMessage[] {
    return this.mailbox.queued;
  }

  /**
   * A message sent while the agent works: it waits, shown as queued, and is given to the model
   * at its next step, after the tool results, like a plan edit.
   */
  enqueue(text: string, attachments?: MessageAttachments): QueuedMessage {
    if (!this.controller) throw new Error('No task is running: send the message as a new task instead.');
    const message = this.mailbox.put(text, attachments?.blocks);
    const extras = chatExtrasOf(attachments);
    this.options.session.recordTask({ event: 'queued', id: message.id, text, ...extras });
    this.emit({ type: 'message_queued', ...message, ...extras });
    return message;
  }

  /** Moves every queued message into the next user message. */
  private takeQueue(pending: ContentBlockParam[]): boolean {
    const taken = this.mailbox.take();
    if (!taken) return false;
    pending.push(...taken.content);
    this.options.session.recordTask({ event: 'queue_taken', ids: taken.ids });
    this.emit({ type: 'message_taken', ids: taken.ids });
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
      const errorCode = error instanceof ModelError ? error.code : 'internal';
      result = { taskId, outcome: 'error', message: error instanceof Error ? error.message : String(error), errorCode };
    } finally {
      this.controller = null;
    }
    if (!this.mailbox.isEmpty) {
      // A stop ends the task; messages that were still waiting are not sent, and the person is told.
      this.emit({ type: 'message_dropped', ids: this.mailbox.drop() });
    }
    const unfinished = result.outcome === 'stopped_unfinished' ? unfinishedItems(session.plan.items) : undefined;
    // The plan's open steps at the end, so the session list can tell "done" from "plan unfinished".
    const openSteps = unfinishedItems(session.plan.items).length;
    session.recordTask({
      event: 'end',
      taskId,
      outcome: result.outcome,
      openSteps,
      ...(result.message ? { message: result.message } : {}),
      ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    });
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
    const profile = await this.profile();
    const settings = profile.settings;
    const plan = session.plan;
    // A "Compact now" still running rewrites the history: start from its result.
    await this.compacting?.done.catch(() => undefined);

    // The finished plan of the last task stays in the history; this task starts with an empty one.
    if (plan.items.length > 0 && unfinishedItems(plan.items).length === 0) {
      plan.propose([], { source: 'agent' });
      this.planView.updated();
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

      const earlier = earlierPlanNote(this.planView);
      let pending: ContentBlockParam[] = [...textBlock(text), ...blocks, ...(earlier ? [earlier] : [])];
      let gateContinues = 0;
      let maxTokenContinues = 0;
      let pauseContinues = 0;
      /** The last answer was paused by the service: the next request continues it as it is. */
      let paused = false;

      for (;;) {
        if (signal.aborted) return this.cancelled(taskId, pending);
        this.takeQueue(pending);
        this.addUserPlanUpdate(pending);
        if (!paused || pending.length > 0) session.appendMessage({ role: 'user', content: pending });
        pending = [];
        paused = false;

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
            response = await requestRound(
              client,
              profile,
              {
                model: settings.model,
                max_tokens: settings.maxTokens,
                system,
                tools,
                messages: withHistoryCacheBreakpoint(normalizeHistory(session.messages)),
              },
              {
                onText: (delta) => this.emit({ type: 'text', delta }),
                onThinking: (delta, redacted) => this.emit({ type: 'thinking', delta, ...(redacted ? { redacted } : {}) }),
                onRetry: (attempt, reason) => this.emit({ type: 'stream_retry', attempt, reason }),
              },
              signal,
              { catalogue: this.options.models, onFallback: (message) => this.notice('model', message) },
            );
            this.context.observe(response.usage, sent);
            break;
          } catch (error) {
            if (signal.aborted) return this.cancelled(taskId, []);
            if (error instanceof ModelError && isContextOverflow(error.message)) {
              const stated = parseOverflow(error.message);
              if (stated) this.options.models?.learnWindow(settings, stated.limit);
              // The service refused the size: make room and try once more; never leave the session too big.
              if (++refusals === 1) {
                await this.context.afterRefusal(room, error.message, this.context.requestTokens());
                continue;
              }
              const madeRoom = this.context.lastResort(settings, text);
              this.emitContext(settings);
              return { taskId, outcome: 'error', message: tooLongMessage(error.message, settings.contextWindow, madeRoom), errorCode: 'too_long' };
            }
            if (error instanceof ModelError) return { taskId, outcome: 'error', message: error.message, errorCode: error.code };
            throw error;
          }
        }
        this.recordUsage(response);
        this.emitContext(settings);

        const content = response.content.filter((block) => !(block.type === 'text' && block.text.trim() === ''));
        if (content.length > 0) session.appendMessage({ role: 'assistant', content: content as ContentBlockParam[] });
        const calls = content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
        this.planView.recordRound(calls.some((call) => call.name === 'todo'));

        if (response.stop_reason === 'refusal') {
          return { taskId, outcome: 'refused', message: REFUSED_MESSAGE };
        }

        if (calls.length > 0) {
          gateContinues = 0;
          // With max_tokens the last tool call may be cut off mid-input: it is answered, never run.
          const cut = response.stop_reason === 'max_tokens' || response.stop_reason === 'model_context_window_exceeded' ? calls.at(-1) : undefined;
          pending = await runRoundCalls(calls, cut, {
            ...this.options,
            gate: this.gate,
            tools: roundTools,
            signal,
            emit: (event) => this.emit(event),
            setState: (state) => this.setState(state),
            ran: (versionBefore) => this.noticeOverrides(versionBefore),
          });
          if (signal.aborted) return this.cancelled(taskId, pending);
          // The person's edit first: being shown it is a plan update, so it may make the reminder moot.
          this.addUserPlanUpdate(pending);
          const reminder = takeReminder(this.planView, settings.reminderRounds);
          if (reminder) {
            pending.push(reminder);
            this.notice('reminder', reminder.text);
          }
          continue;
        }

        // The service paused a long turn (server tools): it goes on from what it said, no message needed.
        if (response.stop_reason === 'pause_turn' && ++pauseContinues <= MAX_PAUSE_CONTINUES) {
          paused = true;
          continue;
        }

        if (response.stop_reason === 'model_context_window_exceeded') {
          // Like "prompt is too long": make room, then the model goes on where it stopped.
          await this.context.afterRefusal(room, '', this.context.requestTokens());
          this.emitContext(settings);
          const message = 'Your answer was cut off because the context window was full. Room was made; continue exactly where it stopped.';
          pending = [{ type: 'text', text: message }];
          this.notice('max_tokens', message);
          continue;
        }

        if (response.stop_reason === 'max_tokens') {
          if (++maxTokenContinues > MAX_TOKENS_CONTINUES) {
            return {
              taskId,
              outcome: 'error',
              message: maxTokensMessage(settings.maxTokens, MAX_TOKENS_CONTINUES + 1),
              errorCode: 'max_tokens',
            };
          }
          pending = [{ type: 'text', text: MAX_TOKENS_CONTINUE }];
          this.notice('max_tokens', MAX_TOKENS_CONTINUE);
          continue;
        }

        // The person wrote while the model worked: their message comes before any verdict on the task.
        if (this.takeQueue(pending)) continue;

        const gate = completionGate({ items: plan.items, planTouchedThisTask: planTouched, continuesInARow: gateContinues, bound: settings.gateBound });
        if (gate.kind === 'done') return { taskId, outcome: 'done' };
        if (gate.kind === 'stop') {
          return { taskId, outcome: 'stopped_unfinished', message: unfinishedPlanMessage(gateContinues + 1, gate.unfinished.length) };
        }
        gateContinues++;
        pending = [{ type: 'text', text: gate.message }];
        this.notice('gate', gate.message);
      }
    } finally {
      stopWatchingPlan();
    }
  }

  /** Adds the `<plan-update source="user">` block when the person edited the plan since the model last saw it. */
  private addUserPlanUpdate(pending: ContentBlockParam[]): void {
    const { plan } = this.planView;
    const seen = this.planView.seenVersion;
    const update = takeUserPlanUpdate(this.planView);
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

  /** The model's limits, thinking and effort as the next task will use them. */
  profile(): Promise<ModelProfile> {
    const settings = this.options.settings();
    return this.options.models?.profile(settings, this.effort) ?? Promise.resolve(builtinProfile(settings, this.effort));
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
    return { taskId, outcome: 'cancelled', message: STOPPED_MESSAGE };
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
