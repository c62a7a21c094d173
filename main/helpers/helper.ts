import type { AgentEvent } from '../../common/agentEvents';
import { Emitter } from '../../common/emitter';
import type { HelperInfo, HelperIsolation } from '../../common/helpers';
import type { PlanItem } from '../../common/plan/types';
import type { Agent, TaskResult } from '../agent/agent';
import type { WorkspaceSession } from '../session/workspaceSession';
import { StallWatch } from './stallWatch';
import type { HelperWorktree } from './worktrees';

export type HelperReasonCode = NonNullable<HelperInfo['reasonCode']>;

const REASONS: Record<HelperReasonCode, string> = {
  stopped_by_person: 'Stopped by the person.',
  main_stopped: 'The main task was stopped.',
  stalled: 'It made no progress for too long and was stopped.',
  model_error: 'The model failed.',
  internal: 'Keel failed.',
  max_rounds: 'It ran out of rounds.',
};

/**
 * One helper: its live HelperInfo (every change is told whole), its own agent and session once it
 * has a place to work, and its stop. What happens to its changes afterwards is the pool's.
 */
export class Helper {
  private current: HelperInfo;
  private readonly changedEmitter = new Emitter<[HelperInfo]>();
  private readonly eventEmitter = new Emitter<[AgentEvent]>();
  private agent: Agent | null = null;
  private stopped: HelperReasonCode | null = null;
  /** Said with the stall's reason: how long it was quiet. */
  stalledDetail: string | undefined;
  /** Its own session (conversation, plan, transcript) once it started. */
  session: WorkspaceSession | null = null;
  worktree: HelperWorktree | null = null;
  /** Settles when its changes have been merged (or given up): a step that waits for its step merges after. */
  readonly mergeSettled: Promise<void>;
  settleMerge!: () => void;

  constructor(
    readonly step: PlanItem,
    id: string,
    instructions: string,
    isolation: HelperIsolation,
    private readonly stallSeconds: number,
  ) {
    this.current = {
      id,
      item: step.id,
      content: step.content,
      instructions,
      state: 'starting',
      plan: [],
      planVersion: 0,
      changedFiles: [],
      merge: 'pending',
      conflictFiles: [],
      worktreeKept: false,
      isolation,
      startedAt: new Date().toISOString(),
    };
    this.mergeSettled = new Promise((resolve) => (this.settleMerge = resolve));
  }

  get id(): string {
    return this.current.id;
  }

  get info(): HelperInfo {
    return this.current;
  }

  /** Its agent loop no longer runs (or never will). */
  get stopRequested(): HelperReasonCode | null {
    return this.stopped;
  }

  onChanged(listener: (info: HelperInfo) => void) {
    return this.changedEmitter.on(listener);
  }

  onEvent(listener: (event: AgentEvent) => void) {
    return this.eventEmitter.on(listener);
  }

  update(patch: Partial<HelperInfo>): void {
    this.current = { ...this.current, ...patch };
    this.changedEmitter.fire(this.current);
  }

  /** Runs its task in `session` with `agent`; a stop asked before this is answered at once. */
  async run(session: WorkspaceSession, agent: Agent, firstMessage: string): Promise<TaskResult | null> {
    this.session = session;
    if (this.stopped) return null;
    this.agent = agent;
    const watch = new StallWatch(this.stallSeconds * 1000, () => {
      if (this.stop('stalled')) this.stalledDetail = `No progress for ${this.stallSeconds} s (helpers.stallSeconds).`;
    });
    const subscriptions = [
      agent.on((event) => {
        watch.progress();
        this.observe(event);
        this.eventEmitter.fire(event);
      }),
      session.plan.onChange(() => this.update(planOf(session, this.id))),
    ];
    try {
      return await agent.runTask(firstMessage);
    } finally {
      watch.dispose();
      for (const dispose of subscriptions) dispose();
      this.agent = null;
    }
  }

  /** Stops its agent (or its start); false when it already ended or a stop was asked before. */
  stop(code: HelperReasonCode): boolean {
    if (this.stopped || this.current.endedAt) return false;
    this.stopped = code;
    this.agent?.stop();
    return true;
  }

  /** The reason a stop or failure gets in its info. */
  static reasonOf(code: HelperReasonCode, detail?: string): Pick<HelperInfo, 'reason' | 'reasonCode'> {
    return { reasonCode: code, reason: detail ? `${REASONS[code]} ${detail}` : REASONS[code] };
  }

  private observe(event: AgentEvent): void {
    if (event.type === 'state') {
      if (event.state === 'thinking') this.update({ state: 'thinking', tool: undefined });
      else if (event.state === 'running_tool') this.update({ state: 'tool' });
      else if (event.state === 'waiting_approval') this.update({ state: 'waiting_approval' });
    } else if (event.type === 'tool_call') this.update({ tool: event.name });
  }
}

/** A helper's own plan as the board shows it: every step owned by it. */
export function planOf(session: WorkspaceSession, helperId: string): Pick<HelperInfo, 'plan' | 'planVersion'> {
  return { plan: session.plan.items.map((item) => ({ ...item, owner: helperId })), planVersion: session.plan.version };
}

/** The helper's final answer: the text of its last assistant message. */
export function finalAnswer(session: WorkspaceSession): string {
  const last = [...session.messages].reverse().find((message) => message.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
