import type { ApprovalMode } from '../../common/approvals';
import type { Effort } from '../../common/modelCapabilities';
import type { ChatMessage } from '../agent/messageTypes';
import { applyCompactionRecord } from '../agent/compaction/compactionRecord';
import type { StoredRecord } from './transcript';
import { parseTranscriptRecord } from './transcriptRecords';

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  /** The API's own web searches (billed per search); absent until the session has one. */
  webSearches?: number;
}

export const emptyUsage = (): UsageTotals => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 });

const TOKEN_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheCreationTokens'] as const;

/** Adds one round to the totals (a count it lacks is 0). */
export function addUsage(totals: UsageTotals, round: Partial<UsageTotals>): void {
  for (const key of TOKEN_KEYS) totals[key] += round[key] ?? 0;
  if (round.webSearches) totals.webSearches = (totals.webSearches ?? 0) + round.webSearches;
}

export interface RestoredConversation {
  messages: ChatMessage[];
  agentSeenVersion: number;
  usage: UsageTotals;
  approvalRules: Set<string>;
  approvalMode: ApprovalMode | null;
  /** The effort picked in the status bar, or null to follow the settings. */
  effort: Effort | null;
  warnings: string[];
}

/** What the person is told when a record of this type has the wrong shape (the record is skipped). */
const SKIPPED: Record<string, string> = {
  message: 'A saved message had an unexpected shape and was skipped.',
  approval_mode: 'A saved approval mode was not recognised and was skipped.',
  effort: 'A saved effort level was not recognised and was skipped.',
};

/** Rebuilds the conversation from transcript records; a record of the wrong shape is skipped with a warning. */
export function restoreConversation(records: readonly StoredRecord[]): RestoredConversation {
  const restored: RestoredConversation = {
    messages: [],
    agentSeenVersion: 0,
    usage: emptyUsage(),
    approvalRules: new Set(),
    approvalMode: null,
    effort: null,
    warnings: [],
  };
  for (const stored of records) {
    const record = parseTranscriptRecord(stored);
    if (record === null) {
      const skipped = SKIPPED[stored.type];
      if (skipped) restored.warnings.push(skipped);
      continue;
    }
    if (record.type === 'message') {
      restored.messages.push(record.message);
    } else if (record.type === 'compaction') {
      // The compacted view, as it was made: the same record applied to the same messages.
      const { cleared, keptFrom, head } = record;
      const stage2 = keptFrom !== undefined && head?.role === 'user' && Array.isArray(head.content);
      restored.messages = applyCompactionRecord(restored.messages, stage2 ? { cleared, keptFrom, head } : { cleared });
    } else if (record.type === 'approval_mode') {
      restored.approvalMode = record.mode;
    } else if (record.type === 'effort') {
      restored.effort = record.effort;
    } else if (record.type === 'approval_rule') {
      if (record.allowed) restored.approvalRules.add(record.rule);
      else restored.approvalRules.delete(record.rule);
    } else if (record.type === 'plan_seen') {
      restored.agentSeenVersion = record.version;
    } else if (record.type === 'usage') {
      addUsage(restored.usage, record.round);
    }
  }
  return restored;
}
