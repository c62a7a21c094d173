import type { CompactionInfo } from '../../../common/contextWindow';
import { normalizeHistory } from '../history';
import type { ChatMessage } from '../messageTypes';
import { applyClearing, type ClearedResult } from './clearResults';
import { compactedHistory } from './compactedHistory';

/**
 * One compaction as the transcript keeps it: enough to rebuild the compacted view from the
 * messages before it (on resume), and to tell a person what was done.
 */
export interface CompactionRecord {
  info: CompactionInfo;
  /** Tool results replaced by a placeholder (after the cut, for stage 2). */
  cleared: Pick<ClearedResult, 'toolUseId' | 'placeholder'>[];
  /** Stage 2: the index, in the normalised history, of the first message kept after the head. */
  keptFrom?: number;
  /** Stage 2: the summary, task and plan that replace everything before `keptFrom`. */
  head?: ChatMessage;
}

/** The history after a compaction. Deterministic, so replaying the transcript gives the same view. Pure. */
export function applyCompactionRecord(messages: readonly ChatMessage[], record: Omit<CompactionRecord, 'info'>): ChatMessage[] {
  let next = normalizeHistory(messages);
  if (record.head && record.keptFrom !== undefined) next = compactedHistory(record.head, next, record.keptFrom);
  return applyClearing(next, record.cleared);
}
