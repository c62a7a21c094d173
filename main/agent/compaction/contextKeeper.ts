import type Anthropic from '@anthropic-ai/sdk';
import type { TextBlockParam, Tool, Usage } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens, type CompactionInfo, type ContextUsage } from '../../../common/contextWindow';
import type { ModelSettings } from '../../settings/modelSettings';
import type { WorkspaceSession } from '../../session/workspaceSession';
import { clearAllResults, makeRoom, setAsideHistory, type RoomPlan } from './compactor';
import { ContextTracker, parseOverflow } from './contextTracker';

/** Stage 1 aims this far below the threshold, so the next rounds do not make room again at once. */
const TARGET_SHARE = 0.6;
/** Clearing that gets the history below this share of the threshold is enough; past it, a summary. */
const ENOUGH_SHARE = 0.75;

export interface RoomContext {
  client: Anthropic;
  settings: ModelSettings;
  task: string | null;
  signal: AbortSignal;
}

/**
 * Keeps one session's requests inside the model's window: knows how big the next request is,
 * makes room before it would pass the threshold, and after the service refused one.
 */
export class ContextKeeper {
  private readonly tracker = new ContextTracker();
  private prefixTokens = 0;
  private prefix: { system: readonly TextBlockParam[]; tools: readonly Tool[] } | undefined;

  constructor(
    private readonly session: WorkspaceSession,
    private readonly onCompaction: (info: CompactionInfo) => void,
  ) {}

  /** The system prompt and tools of the coming requests: part of every request's size. */
  setPrefix(system: readonly TextBlockParam[], tools: readonly Tool[]): void {
    // The same prompt and tools every round of a task: estimated again only when they change.
    const last = this.prefix;
    if (last && last.system === system && sameTools(last.tools, tools)) return;
    this.prefix = { system, tools };
    this.prefixTokens = estimateTokens({ system, tools });
  }

  /** After an answer to a request that carried `messageCount` of the session's messages. */
  observe(usage: Usage, messageCount: number): void {
    this.tracker.observe(usage, messageCount);
  }

  usage(settings: Pick<ModelSettings, 'contextWindow' | 'compactAt'>): ContextUsage {
    const window = this.tracker.window(settings.contextWindow);
    return {
      usedTokens: this.tracker.estimate(this.prefixTokens, this.session.messages),
      windowTokens: window,
      compactAtTokens: Math.max(1, Math.floor(window * settings.compactAt)),
      historyMessages: this.session.messages.length,
    };
  }

  /** Makes room when the next request would pass the threshold. */
  async beforeRequest(context: RoomContext): Promise<CompactionInfo[]> {
    const { usedTokens, compactAtTokens, windowTokens } = this.usage(context.settings);
    if (usedTokens <= compactAtTokens) return [];
    return this.run(context, {
      reason: 'threshold',
      summarize: false,
      targetTokens: Math.floor(compactAtTokens * TARGET_SHARE),
      enoughTokens: Math.floor(compactAtTokens * ENOUGH_SHARE),
      window: windowTokens,
    });
  }

  /** The service said the request was too long: learn its real size and limit, then make room. */
  async afterRefusal(context: RoomContext, message: string, requestTokens: number): Promise<CompactionInfo[]> {
    this.tracker.learnFromRefusal(parseOverflow(message), requestTokens);
    const { compactAtTokens, windowTokens } = this.usage(context.settings);
    return this.run(context, {
      reason: 'refused',
      summarize: false,
      targetTokens: Math.floor(compactAtTokens * TARGET_SHARE),
      enoughTokens: Math.floor(compactAtTokens * ENOUGH_SHARE),
      window: windowTokens,
    });
  }

  /** The person asked for it ("Compact now"): the older conversation is summarised. */
  async now(context: RoomContext): Promise<CompactionInfo[]> {
    const { compactAtTokens, windowTokens } = this.usage(context.settings);
    return this.run(context, {
      reason: 'manual',
      summarize: true,
      targetTokens: Math.floor(compactAtTokens * TARGET_SHARE),
      enoughTokens: 0,
      window: windowTokens,
    });
  }

  /**
   * After a second refusal: clears every tool result, and when that is still too big sets the
   * conversation aside, so the next message has room. Returns what was done.
   */
  lastResort(settings: ModelSettings, task: string | null): CompactionInfo[] {
    const estimate = (messages: Parameters<ContextTracker['estimateWhole']>[1]) => this.tracker.estimateWhole(this.prefixTokens, messages);
    const infos: CompactionInfo[] = [];
    const cleared = clearAllResults({ session: this.session, estimate }, 'refused', this.tracker.window(settings.contextWindow));
    if (cleared) infos.push(cleared);
    if (this.usage(settings).usedTokens > this.usage(settings).compactAtTokens) {
      const setAside = setAsideHistory({ session: this.session, estimate, task }, 'refused');
      if (setAside) infos.push(setAside);
    }
    if (infos.length > 0) this.tracker.reset();
    for (const info of infos) this.onCompaction(info);
    return infos;
  }

  /** The size of a request carrying the session's history as it is now. */
  requestTokens(): number {
    return this.tracker.estimateWhole(this.prefixTokens, this.session.messages);
  }

  private async run(context: RoomContext, plan: RoomPlan): Promise<CompactionInfo[]> {
    // A refusal has just measured the request; otherwise the last answer's usage is the measure.
    if (plan.reason !== 'refused') this.tracker.calibrate(this.prefixTokens, this.session.messages);
    const infos = await makeRoom({ ...context, session: this.session, estimate: (messages) => this.tracker.estimateWhole(this.prefixTokens, messages) }, plan);
    if (infos.length > 0) this.tracker.reset();
    for (const info of infos) this.onCompaction(info);
    return infos;
  }
}

/** The same definitions, tool by tool (a round builds a new list around the same schemas). */
function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  return (
    a.length === b.length &&
    a.every((tool, i) => {
      const other = b[i]!;
      return tool.name === other.name && tool.description === other.description && tool.input_schema === other.input_schema;
    })
  );
}
