import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentState } from '../../common/agentEvents';
import type { CompactionInfo, ContextUsage } from '../../common/contextWindow';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import { SessionEffort } from './sessionEffort';
import type { ApprovalBroker } from '../approvals/approvalBroker';
import { ApprovalGate } from '../approvals/approvalGate';
import { builtinProfile, type ModelProfile } from '../models/modelProfile';
import type { PlanView } from '../plan/planView';
import type { ModelSettings } from '../settings/modelSettings';
import type { AgentOptions } from './agentOptions';
import { CompactNow } from './compactNow';
import { ContextKeeper, type RoomContext } from './compaction/contextKeeper';
import { textBlock, type QueuedMessage } from './mailbox';
import type { MessageAttachments } from './messageAttachments';
import { MessageQueue } from './messageQueue';
import { createModelClient } from './modelClient';
import { REFUSED_MESSAGE } from './modelTexts';
import { noticeTo, type Notify } from './notice';
import { planAtTaskStart } from './planMessages';
import { addRoundPlanUpdates, addUserPlanUpdate, noticeOverrides } from './planNotices';
import { requestWithRoom } from './requestWithRoom';
import { keepAnswer } from './roundAnswer';
import { runRoundCalls } from './roundCalls';
import { createTodoTool } from './sessionTodoTool';
import { cutOffCall, StopReasons } from './stopReasons';
import { agentSystemPrompt } from './systemPrompt';
import { cancelledTask, failedTask, recordTaskEnd, recordTaskStart, type TaskResult } from './taskRecords';
import { TurnVerdict } from './turnVerdict';
import { toolDefinitions, type AgentTool } from './toolRunner';
import { recordUsage } from './usageRecord';

export type { AgentOptions } from './agentOptions';
export type { QueuedMessage } from './mailbox';
export type { TaskResult } from './taskRecords';

/**
 * The agent loop: one task is what one message from the person starts. Each round streams the
 * model's answer, runs its tool calls, and answers them in ONE user message whose content starts
 * with every tool_result and only then carries Keel's own text (plan updates, the reminder).
 * The plan rules of docs/plan-rules.md are decided by the pure functions in common/plan/rules.ts.
 */
export class Agent {
  private readonly events = new Emitter<[AgentEvent]>();
  private readonly emit = (event: AgentEvent): void => this.events.fire(event);
  private readonly emitContext = (settings: ModelSettings): void => this.emit({ type: 'context', ...this.context.usage(settings) });
  /** Read at the start of each task, so an edited AGENTS.md applies to the next one. */
  private readonly systemPrompt = () => agentSystemPrompt(this.options.session, this.tools, this.options.dataDir, this.options.instructionsFolder);
  private controller: AbortController | null = null;
  private readonly tools: AgentTool[];
  private currentState: AgentState = 'idle';
  private currentTask: Promise<TaskResult> | null = null;
  private readonly queue: MessageQueue;
  private readonly notice: Notify;
  /** The plan's open steps when the last task ended (undefined before one has). */
  lastOpenSteps: number | undefined;
  private readonly gate: ApprovalGate;
  /** What this agent's model has seen of the plan. */
  readonly planView: PlanView;
  /** Keeps every request inside the model's context window. */
  readonly context: ContextKeeper;
  private readonly compaction: CompactNow;
  /** The effort chosen in the status bar for this session (the settings' applies until then). */
  readonly effort = new SessionEffort(() => this.options.session);

  constructor(private readonly options: AgentOptions) {
    this.planView = options.planView ?? options.session.planView;
    this.tools = [...options.tools, createTodoTool(this.planView)];
    this.queue = new MessageQueue(options.session, this.emit);
    this.notice = noticeTo(options.session, this.emit);
    const { helper, ...gateOptions } = options;
    this.gate = new ApprovalGate(options.session, {
      ...gateOptions,
      sandboxed: async () => {
        // Its check first (cached once done), then the state now: a helper that died since says so.
        await options.sandbox?.start();
        return options.sandbox?.status.state === 'on';
      },
      ...(helper ? { broker: helper.approvals, helper: helper.id } : {}),
    });
    this.context = new ContextKeeper(options.session, (info) => this.emit({ type: 'compaction', ...info }));
    const setPrefix = () => this.context.setPrefix(this.systemPrompt(), toolDefinitions(this.tools));
    setPrefix();
    this.compaction = new CompactNow(this.context, options, setPrefix, this.emitContext);
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

  private setState(state: AgentState): void {
    this.currentState = state;
    this.emit({ type: 'state', state });
  }

  get state(): AgentState {
    return this.currentState;
  }

  get queued(): QueuedMessage[] {
    return this.queue.queued;
  }

  /** A message sent while the agent works: it waits, and is given to the model at its next step (see MessageQueue). */
  enqueue(text: string, attachments?: MessageAttachments): QueuedMessage {
    if (!this.controller) throw new Error('No task is running: send the message as a new task instead.');
    return this.queue.put(text, attachments);
  }

  /** Stops the running task at once: the stream is aborted, the running command killed. */
  stop(): void {
    this.controller?.abort();
    this.compaction.stop();
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
    const controller = (this.controller = new AbortController());
    const taskId = randomUUID();
    recordTaskStart(this.options, taskId, text, attachments, this.emit);
    const done = this.finishTask(taskId, text, controller, attachments?.blocks ?? []);
    this.currentTask = done;
    return { taskId, done };
  }

  private async finishTask(taskId: string, text: string, controller: AbortController, blocks: ContentBlockParam[]): Promise<TaskResult> {
    let result: TaskResult;
    try {
      result = await this.loop(taskId, text, controller.signal, blocks);
    } catch (error) {
      result = failedTask(taskId, error);
    } finally {
      this.controller = null;
    }
    this.queue.dropWaiting();
    const end = recordTaskEnd(this.options.session, this.options.changes, result);
    this.setState(end.state);
    this.lastOpenSteps = end.openSteps;
    this.emit({ type: 'task_finished', ...result, openSteps: end.openSteps, ...(end.unfinished ? { unfinished: end.unfinished } : {}) });
    return result;
  }

  private async loop(taskId: string, text: string, signal: AbortSignal, blocks: ContentBlockParam[]): Promise<TaskResult> {
    const { session } = this.options;
    const profile = this.effort.track(await this.profile());
    const settings = profile.settings;
    await this.compaction.settled();
    const planNote = planAtTaskStart(this.planView);
    const verdict = new TurnVerdict(session.plan, settings.gateBound, this.notice);

    try {
      const client = await (this.options.createClient ?? createModelClient)(settings);
      const system = this.systemPrompt();
      this.context.setPrefix(system, toolDefinitions(this.tools));
      this.compaction.lastTask = text;
      const room: RoomContext = { client, settings, task: text, signal };
      const stops = new StopReasons(this.context, room, this.notice, () => this.emitContext(settings));

      let pending: ContentBlockParam[] = [...textBlock(text), ...blocks, ...planNote];
      /** The last answer was paused by the service: the next request continues it as it is. */
      let paused = false;

      for (;;) {
        if (signal.aborted) return cancelledTask(session, taskId, pending);
        this.queue.takeInto(pending);
        addUserPlanUpdate(this.planView, pending, this.notice);
        if (!paused || pending.length > 0) session.appendMessage({ role: 'user', content: pending });
        pending = [];
        paused = false;

        this.setState('thinking');
        const roundTools = [...this.tools, ...((await this.options.moreTools?.(signal)) ?? [])];
        if (signal.aborted) return cancelledTask(session, taskId, []);
        const tools = toolDefinitions(roundTools);
        this.context.setPrefix(system, tools);
        const { context, emit, notice } = this;
        const answer = await requestWithRoom({ client, profile, room, system, tools, session, context, models: this.options.models, emit, notice });
        if (answer.kind === 'cancelled') return cancelledTask(session, taskId, []);
        if (answer.kind === 'ended') return { taskId, ...answer.end };
        const response = answer.response;
        recordUsage(session, response, this.emit);
        this.emitContext(settings);

        const calls = keepAnswer(session, response);
        this.planView.recordRound(calls.some((call) => call.name === 'todo'));

        if (response.stop_reason === 'refusal') return { taskId, outcome: 'refused', message: REFUSED_MESSAGE };

        if (calls.length > 0) {
          verdict.toolRound();
          pending = await runRoundCalls(calls, cutOffCall(response.stop_reason, calls), {
            ...this.options,
            gate: this.gate,
            tools: roundTools,
            signal,
            emit: this.emit,
            setState: (state) => this.setState(state),
            ran: (versionBefore) => noticeOverrides(session.plan, versionBefore, this.notice),
          });
          if (signal.aborted) return cancelledTask(session, taskId, pending);
          addRoundPlanUpdates(this.planView, pending, settings.reminderRounds, this.notice);
          continue;
        }

        const next = await stops.after(response.stop_reason);
        // The person wrote while the model worked: their message comes before any verdict on the task.
        if (!next && this.queue.takeInto(pending)) continue;
        const step = next ?? verdict.judge();
        if (step.kind === 'end') return { taskId, ...step.end };
        ({ pending, paused } = step);
      }
    } finally {
      verdict.dispose();
      this.effort.track(null);
    }
  }

  /** The model's limits, thinking and effort as the next task will use them. */
  profile(): Promise<ModelProfile> {
    const settings = this.options.settings();
    return this.options.models?.profile(settings, this.effort.chosen) ?? Promise.resolve(builtinProfile(settings, this.effort.chosen));
  }

  /** How full the window is, as the status bar's meter shows it. */
  contextUsage(settings = this.options.settings()): ContextUsage {
    return this.context.usage(settings);
  }

  /**
   * "Compact now": summarises the older conversation between tasks. Resolves with what was done
   * (empty when there was nothing to compact).
   */
  async compactNow(): Promise<CompactionInfo[]> {
    if (this.controller || this.compaction.running) throw new Error('A task is running: wait for it to finish or stop it, then compact.');
    return this.compaction.run();
  }
}
