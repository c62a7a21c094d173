import { ApprovalModeSchema, type ApprovalMode } from '../../common/approvals';
import type { ChatMessage } from '../agent/messageTypes';
import { applyCompactionRecord } from '../agent/compaction/compactionRecord';

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

export const emptyUsage = (): UsageTotals => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 });

export interface RestoredConversation {
  messages: ChatMessage[];
  agentSeenVersion: number;
  usage: UsageTotals;
  approvalRules: Set<string>;
  approvalMode: ApprovalMode | null;
  warnings: string[];
}

/** Rebuilds the conversation from transcript records; a record of the wrong shape is skipped with a warning. */
export function restoreConversation(records: readonly Record<string, unknown>[]): RestoredConversation {
  const restored: RestoredConversation = { messages: [], agentSeenVersion: 0, usage: emptyUsage(), approvalRules: new Set(), approvalMode: null, warnings: [] };
  for (const record of records) {
    if (record.type === 'message') {
      const message = record.message as { role?: unknown; content?: unknown } | undefined;
      const validRole = message?.role === 'user' || message?.role === 'assistant';
      const validContent = typeof message?.content === 'string' || Array.isArray(message?.content);
      if (validRole && validContent) restored.messages.push(message as ChatMessage);
      else restored.warnings.push('A saved message had an unexpected shape and was skipped.');
    } else if (record.type === 'compaction') {
      // The compacted view, as it was made: the same record applied to the same messages.
      const cleared = Array.isArray(record.cleared) ? record.cleared.filter(isClearedEntry) : [];
      const head = record.head as ChatMessage | undefined;
      const stage2 = typeof record.keptFrom === 'number' && head?.role === 'user' && Array.isArray(head.content);
      restored.messages = applyCompactionRecord(restored.messages, stage2 ? { cleared, keptFrom: record.keptFrom as number, head } : { cleared });
    } else if (record.type === 'approval_mode') {
      const mode = ApprovalModeSchema.safeParse(record.mode);
      if (mode.success) restored.approvalMode = mode.data;
      else restored.warnings.push('A saved approval mode was not recognised and was skipped.');
    } else if (record.type === 'approval_rule' && typeof record.rule === 'string') {
      if (record.allowed === true) restored.approvalRules.add(record.rule);
      else restored.approvalRules.delete(record.rule);
    } else if (record.type === 'plan_seen' && typeof record.version === 'number') {
      restored.agentSeenVersion = record.version;
    } else if (record.type === 'usage' && typeof record.round === 'object' && record.round !== null) {
      const round = record.round as Partial<UsageTotals>;
      for (const key of Object.keys(restored.usage) as (keyof UsageTotals)[]) restored.usage[key] += Number(round[key] ?? 0) || 0;
    }
  }
  return restored;
}

function isClearedEntry(value: unknown): value is { toolUseId: string; placeholder: string } {
  const entry = value as { toolUseId?: unknown; placeholder?: unknown } | null;
  return typeof entry?.toolUseId === 'string' && typeof entry.placeholder === 'string';
}
