import type Anthropic from '@anthropic-ai/sdk';
import { randomUUID } from 'node:crypto';
import { estimateTokens, type CompactionInfo, type CompactionReason } from '../../../common/contextWindow';
import type { ModelSettings } from '../../settings/modelSettings';
import type { WorkspaceSession } from '../../session/workspaceSession';
import { normalizeHistory } from '../history';
import type { ChatMessage } from '../messageTypes';
import { describeModelError } from '../modelClient';
import { chooseResultsToClear, KEEP_RECENT_ROUNDS } from './clearResults';
import { chooseSummaryBoundary, compactedHead, compactedHistory } from './compactedHistory';
import { applyCompactionRecord, type CompactionRecord } from './compactionRecord';
import { isContextOverflow } from './contextTracker';
import { SUMMARY_SYSTEM, summaryRequestMessages } from './summaryRequest';

/** The recent rounds kept word for word by a summary take at most this share of the window. */
const KEEP_SHARE = 0.25;
const SUMMARY_MAX_TOKENS = 4_096;
/** "Compact now" does not summarise less than this. */
const MANUAL_MIN_TOKENS = 1_000;

export interface RoomPlan {
  reason: CompactionReason;
  /** Go to the summary even if clearing would do (a refusal, "Compact now"). */
  summarize: boolean;
  /** Aim: the history should estimate at most this many tokens afterwards. */
  targetTokens: number;
  /** Clearing that gets below this is enough; past it, a summary is written. */
  enoughTokens: number;
  window: number;
}

export interface CompactorDeps {
  session: WorkspaceSession;
  client: Anthropic;
  settings: ModelSettings;
  /** The person's message that started the task (repeated after a summary). */
  task: string | null;
  signal: AbortSignal;
  /** Tokens of a whole request with this history (system prompt and tools included). */
  estimate(messages: readonly ChatMessage[]): number;
}

/**
 * Makes room in the session's history: stage 1 clears older tool results; stage 2, when that is
 * not enough, replaces the older conversation by a summary the model writes in a side request.
 * Each stage is applied to the session (and its transcript) as a compaction record.
 */
export async function makeRoom(deps: CompactorDeps, plan: RoomPlan): Promise<CompactionInfo[]> {
  const { session } = deps;
  const infos: CompactionInfo[] = [];
  let history = normalizeHistory(session.messages);
  let size = deps.estimate(history);

  if (!plan.summarize) {
    const cleared = chooseResultsToClear(history, { keepRounds: KEEP_RECENT_ROUNDS, tokensToFree: size - plan.targetTokens });
    if (cleared.length > 0) {
      const record: CompactionRecord = { info: info(plan, 'cleared', size, cleared.length, 0), cleared };
      history = apply(deps, record);
      infos.push(record.info);
      size = record.info.afterTokens;
      if (size <= plan.enoughTokens) return infos;
    }
  }

  const keptFrom = chooseSummaryBoundary(history, Math.floor(plan.window * KEEP_SHARE));
  if (keptFrom === 0) {
    // Nothing older to summarise: only the latest round is left; clear what it can spare.
    const cleared = chooseResultsToClear(history, { keepRounds: 0, tokensToFree: size - plan.targetTokens });
    if (cleared.length > 0) {
      const record: CompactionRecord = { info: info(plan, 'cleared', size, cleared.length, 0), cleared };
      apply(deps, record);
      infos.push(record.info);
    }
    return infos;
  }

  const older = history.slice(0, keptFrom);
  // Asked for by the person with next to nothing older: a summary would not make room.
  if (plan.reason === 'manual' && older.reduce((n, m) => n + estimateTokens(m), 0) < MANUAL_MIN_TOKENS) return infos;
  const summary = await summarise(deps, older, plan.window);
  const head = compactedHead({ summary, task: deps.task, plan: session.plan.items, summarizedMessages: keptFrom });
  const next = compactedHistory(head, history, keptFrom);
  const nextSize = deps.estimate(next);
  const cleared = nextSize > plan.targetTokens ? chooseResultsToClear(next, { keepRounds: 1, tokensToFree: nextSize - plan.targetTokens }) : [];
  const record: CompactionRecord = { info: { ...info(plan, 'summarized', size, cleared.length, keptFrom), summary }, cleared, keptFrom, head };
  apply(deps, record);
  infos.push(record.info);
  return infos;
}

/** The last resort after the service refused twice: every tool result but none of the text goes. */
export function clearAllResults(deps: Pick<CompactorDeps, 'session' | 'estimate'>, reason: CompactionReason, window: number): CompactionInfo | null {
  const history = normalizeHistory(deps.session.messages);
  const size = deps.estimate(history);
  const cleared = chooseResultsToClear(history, { keepRounds: 0, tokensToFree: Number.POSITIVE_INFINITY });
  if (cleared.length === 0) return null;
  const plan = { reason, summarize: false, targetTokens: 0, enoughTokens: 0, window };
  const record: CompactionRecord = { info: info(plan, 'cleared', size, cleared.length, 0), cleared };
  apply(deps, record);
  return record.info;
}

/**
 * The very last resort, when even the cleared history is too big (a message bigger than the
 * window): the conversation is set aside for a head that keeps the task (clipped) and the plan,
 * so the next message is not refused as well. The transcript keeps everything.
 */
export function setAsideHistory(deps: Pick<CompactorDeps, 'session' | 'estimate' | 'task'>, reason: CompactionReason): CompactionInfo | null {
  const history = normalizeHistory(deps.session.messages);
  if (history.length === 0) return null;
  const size = deps.estimate(history);
  const summary = `(No summary: even with its tool results cleared the conversation did not fit the model's context window, so its ${history.length} messages were set aside. Keel's transcript keeps them; ask the person for what you need.)`;
  const head = compactedHead({ summary, task: deps.task, plan: deps.session.plan.items, summarizedMessages: history.length });
  const record: CompactionRecord = {
    info: { ...info({ reason }, 'summarized', size, 0, history.length), summary },
    cleared: [],
    keptFrom: history.length,
    head,
  };
  apply(deps, record);
  return record.info;
}

function info(
  plan: Pick<RoomPlan, 'reason'>,
  stage: CompactionInfo['stage'],
  before: number,
  clearedResults: number,
  summarizedMessages: number,
): CompactionInfo {
  return { id: randomUUID(), stage, reason: plan.reason, beforeTokens: before, afterTokens: before, clearedResults, summarizedMessages };
}

/** Applies the record to the session (and its transcript), with the size it leaves. */
function apply(deps: Pick<CompactorDeps, 'session' | 'estimate'>, record: CompactionRecord): ChatMessage[] {
  const next = applyCompactionRecord(deps.session.messages, record);
  record.info.afterTokens = deps.estimate(next);
  if (record.cleared.length > 0) record.info.placeholders = record.cleared.map((c) => c.placeholder);
  deps.session.applyCompaction(record, next);
  return next;
}

/** The summary of `older`, from a side request that itself fits the window; never throws but for a stop. */
async function summarise(deps: CompactorDeps, older: readonly ChatMessage[], window: number): Promise<string> {
  const maxTokens = Math.max(256, Math.min(deps.settings.maxTokens, SUMMARY_MAX_TOKENS, Math.floor(window / 4)));
  let budget = Math.floor((window - maxTokens) * 0.7) - estimateTokens(SUMMARY_SYSTEM);
  let failure = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const answer = await deps.client.messages.create(
        { model: deps.settings.model, max_tokens: maxTokens, system: SUMMARY_SYSTEM, messages: summaryRequestMessages(older, budget) },
        { signal: deps.signal },
      );
      const text = answer.content
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join('\n')
        .trim();
      if (text) return text;
      failure = 'the model answered with no text';
      break;
    } catch (error) {
      if (deps.signal.aborted) throw error;
      failure = describeModelError(error, deps.settings).message;
      if (!isContextOverflow(failure)) break;
      budget = Math.floor(budget / 2);
    }
  }
  // The room is made anyway: a session must not stay too big for every next message.
  return `(No summary could be written: ${failure} The earlier messages were removed to make room; read files again and check the plan to find your way.)`;
}
