import type { AgentEvent, AgentState } from '../../common/agentEvents';
import type { ApprovalDecision, ApprovalRequest } from '../../common/approvals';
import type { ChatItem } from '../../common/chat';
import { applyAgentEvent } from '../../common/chatReducer';
import { withLiveCalls } from '../../common/liveCalls';
import { DisposableStore, type Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import type { ImageAttachment, KeelApi, PlanSnapshot, WorkspaceInfo } from '../../common/contract';
import { ErrorCodes } from '../../common/errorCodes';
import type { PlanItem } from '../../common/plan/types';

/** An approval card of a tool call, and how the person answered it (once they did). */
export interface ToolApproval {
  request: ApprovalRequest;
  decision?: ApprovalDecision['decision'];
}

/** Everything the chat shows, as one immutable snapshot. */
export interface ChatSnapshot {
  /** undefined until main has said which folder is open. */
  readonly workspace: WorkspaceInfo | null | undefined;
  /** False while the history of the open session loads. */
  readonly loaded: boolean;
  readonly items: readonly ChatItem[];
  readonly running: boolean;
  readonly state: AgentState;
  /** Approval cards waiting for the person, oldest first. */
  readonly approvals: readonly ApprovalRequest[];
  /** By tool call id: the approval card it had (its diff is the best preview of a file change). */
  readonly approvalOf: ReadonlyMap<string, ToolApproval>;
  /** By outcome item id: the unfinished steps a stopped task left. */
  readonly unfinished: ReadonlyMap<string, readonly PlanItem[]>;
  readonly plan: PlanSnapshot | null;
  /** A cut stream is being retried (its partial answer was dropped); null once the model answers again. */
  readonly retry: { attempt: number; reason: string } | null;
}

const initial: ChatSnapshot = {
  workspace: undefined,
  loaded: false,
  items: [],
  running: false,
  state: 'idle',
  approvals: [],
  approvalOf: new Map(),
  unfinished: new Map(),
  plan: null,
  retry: null,
};

/** Events that change what is on screen at once; the rest (tokens, live output) are batched. */
const BATCHED = new Set<AgentEvent['type']>(['text', 'tool_output', 'usage']);

/**
 * The chat's state, kept outside React: the history of the open session (`chat.load`), then
 * every agent event folded in with the pure `applyAgentEvent`. Streamed tokens are folded at once
 * but published at most every `throttleMs`, so a long answer costs a render per frame or two, not
 * one per token.
 */
export class ChatStore {
  private live: ChatSnapshot = initial;
  private published: ChatSnapshot = initial;
  private readonly changes = new Emitter<[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Events that arrived while the history loaded, with their numbers: those it does not hold are replayed on top of it. */
  private buffered: { event: AgentEvent; seq?: number }[] | null = null;
  private loadCount = 0;
  private ids = 0;

  constructor(
    private readonly api: KeelApi,
    private readonly throttleMs = 50,
  ) {}

  subscribe = (listener: () => void): Disposable => this.changes.on(listener);

  getSnapshot = (): ChatSnapshot => this.published;

  /** Listens to main and loads the open session; returns the function that stops it. */
  start(): Disposable {
    const subscriptions = new DisposableStore();
    subscriptions.add(this.api.on('agent.event', ({ seq, ...event }) => this.onEvent(event, seq)));
    // A helper's approvals wait with the main agent's, in the chat (the board shows the rest of its events).
    subscriptions.add(
      this.api.on('helper.event', ({ event }) => {
        if (event.type === 'approval_requested' || event.type === 'approval_resolved') this.onEvent(event);
      }),
    );
    subscriptions.add(this.api.on('workspace.changed', (workspace) => void this.load(workspace)));
    subscriptions.add(
      this.api.on('plan.changed', (plan) => {
        if (!this.live.plan || plan.version >= this.live.plan.version) this.update({ plan }, true);
      }),
    );
    void this.api.request('workspace.current', {}).then((result) => this.load(result.ok ? result.value : null));
    return () => {
      subscriptions.dispose();
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      this.loadCount++;
    };
  }

  /** (Re)loads the chat of the open session: on start and whenever the folder or session changes. */
  async load(workspace: WorkspaceInfo | null): Promise<void> {
    const count = ++this.loadCount;
    this.buffered = [];
    this.live = { ...initial, workspace, loaded: workspace === null };
    this.flush();
    if (workspace === null) {
      this.buffered = null;
      return;
    }
    const [loadedChat, plan] = await Promise.all([this.api.request('chat.load', {}), this.api.request('plan.get', {})]);
    if (count !== this.loadCount) return;
    const chat = loadedChat.ok ? loadedChat.value : null;
    const status = chat?.status;
    const queued = new Set(status ? status.queued.map((message) => message.id) : []);
    const live = status?.liveCalls ?? { calls: [], approvals: [] };
    const items = withLiveCalls(chat?.items ?? [], live.calls).map((item) => (item.kind === 'user' && queued.has(item.id) ? { ...item, queued: true } : item));
    const pending = status?.pendingApprovals ?? [];
    const approvalOf = new Map<string, ToolApproval>(live.approvals.map((approval) => [approval.request.toolUseId, approval]));
    for (const request of pending) approvalOf.set(request.toolUseId, { request });
    this.live = {
      ...this.live,
      loaded: true,
      items,
      running: status?.running ?? false,
      state: status?.state ?? 'idle',
      approvals: pending,
      approvalOf,
      plan: plan.ok ? plan.value : null,
    };
    const buffered = this.buffered ?? [];
    this.buffered = null;
    // The chat holds exactly the events numbered up to `upTo`; a helper's approvals carry no number.
    const upTo = chat?.upTo ?? 0;
    for (const { event, seq } of buffered) {
      if (seq !== undefined && seq <= upTo) continue;
      if (!this.alreadyShown(event)) this.apply(event);
    }
    this.flush();
  }

  private onEvent(event: AgentEvent, seq?: number): void {
    if (this.buffered) {
      this.buffered.push(seq === undefined ? { event } : { event, seq });
      return;
    }
    this.apply(event);
    if (BATCHED.has(event.type)) this.schedule();
    else this.flush();
  }

  /** Whether the loaded history already holds what this event adds. */
  private alreadyShown(event: AgentEvent): boolean {
    const has = (id: string) => this.live.items.some((item) => item.id === id);
    switch (event.type) {
      case 'task_started':
        return has(`task-${event.taskId}`);
      case 'task_finished':
        return has(`end-${event.taskId}`);
      case 'message_queued':
      case 'tool_call':
        return has(event.id);
      case 'approval_requested':
        return this.live.approvals.some((request) => request.id === event.request.id);
      default:
        return false;
    }
  }

  private apply(event: AgentEvent): void {
    const live = this.live;
    const items = applyAgentEvent(live.items, event, () => `live-${++this.ids}`);
    if (event.type === 'stream_retry') {
      this.live = { ...live, items, retry: { attempt: event.attempt, reason: event.reason } };
      return;
    }
    if (live.retry && (event.type === 'text' || event.type === 'tool_call' || event.type === 'task_finished' || event.type === 'notice')) {
      this.live = { ...live, retry: null };
      this.apply(event);
      return;
    }
    switch (event.type) {
      case 'task_started':
        this.live = { ...live, items, running: true, state: 'thinking' };
        return;
      case 'state':
        this.live = { ...live, items, state: event.state };
        return;
      case 'approval_requested': {
        const approvalOf = new Map(live.approvalOf).set(event.request.toolUseId, { request: event.request });
        this.live = { ...live, items, approvals: [...live.approvals, event.request], approvalOf };
        return;
      }
      case 'approval_resolved':
        this.live = { ...live, items, ...this.resolved(event.id, event.decision) };
        return;
      case 'task_finished': {
        const unfinished = event.unfinished ? new Map(live.unfinished).set(`end-${event.taskId}`, event.unfinished) : live.unfinished;
        this.live = { ...live, items, running: false, approvals: [], unfinished };
        return;
      }
      default:
        this.live = { ...live, items };
    }
  }

  private resolved(id: string, decision: ApprovalDecision['decision']): Pick<ChatSnapshot, 'approvals' | 'approvalOf'> {
    const { approvals, approvalOf } = this.live;
    const request = approvals.find((r) => r.id === id) ?? [...approvalOf.values()].find((a) => a.request.id === id)?.request;
    const next = new Map(approvalOf);
    if (request) next.set(request.toolUseId, { request, decision });
    return { approvals: approvals.filter((r) => r.id !== id), approvalOf: next };
  }

  private update(change: Partial<ChatSnapshot>, now: boolean): void {
    this.live = { ...this.live, ...change };
    if (now) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), this.throttleMs);
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.published === this.live) return;
    this.published = this.live;
    this.changes.fire();
  }

  // ---- what the person does ----------------------------------------------------------------------

  /** Starts a task, or queues the message while one runs. Resolves with an error message, or null. */
  async send(text: string, extras: { images?: ImageAttachment[]; mentions?: string[] } = {}): Promise<string | null> {
    const result = await this.api.request('task.send', { text, ...extras });
    return result.ok ? null : result.error.message;
  }

  /** Sends a message that never reached the agent again, with its pictures fetched back from main. */
  async sendAgain(item: Extract<ChatItem, { kind: 'user' }>): Promise<string | null> {
    const images: ImageAttachment[] = [];
    for (const image of item.images ?? []) {
      const fetched = await this.api.request('chat.image', { ref: image.ref });
      if (!fetched.ok) return fetched.error.message;
      images.push({ mediaType: fetched.value.mediaType as ImageAttachment['mediaType'], data: fetched.value.data });
    }
    return this.send(item.text, { ...(images.length ? { images } : {}), ...(item.mentions?.length ? { mentions: item.mentions } : {}) });
  }

  async stop(): Promise<void> {
    await this.api.request('task.stop', {});
  }

  /** Answers an approval card; the card leaves at once (main confirms with approval_resolved). */
  async respond(request: ApprovalRequest, answer: ApprovalDecision): Promise<void> {
    this.update(this.resolved(request.id, answer.decision), true);
    await this.api.request('approval.respond', { id: request.id, answer });
  }

  /** Marks every step of the stored plan completed (a person's edit, like one made on the board). */
  async markPlanDone(): Promise<string | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.api.request('plan.get', {});
      if (!current.ok) return current.error.message;
      const items = current.value.items.map((item) => ({ ...item, status: 'completed' }));
      const edited = await this.api.request('plan.edit', { baseVersion: current.value.version, items });
      if (edited.ok) {
        this.update({ plan: edited.value }, true);
        return null;
      }
      if (edited.error.code !== ErrorCodes.planConflict) return edited.error.message;
    }
    return null;
  }
}
