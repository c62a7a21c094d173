import type { ContentBlockParam, ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../../common/contextWindow';
import type { ChatMessage } from '../messageTypes';
import { clearedPlaceholder, isCleared } from './placeholder';

/** A helper's result (main/helpers/) is the only record of its work the model gets: never cleared. */
const KEPT_TOOLS = new Set(['delegate']);

/** Results answering the last few rounds are never cleared: the model is working with them. */
export const KEEP_RECENT_ROUNDS = 3;

export interface ClearedResult {
  toolUseId: string;
  placeholder: string;
  /** Tokens the clearing frees (estimated). */
  freed: number;
}

/**
 * Stage 1: which older tool results to replace by a placeholder to free `tokensToFree` tokens.
 * Results with images go first, then the biggest. Only the content of a tool_result changes, so
 * every tool_use keeps its tool_result and the history stays valid. Helpers' results stay. Pure.
 */
export function chooseResultsToClear(messages: readonly ChatMessage[], options: { keepRounds: number; tokensToFree: number }): ClearedResult[] {
  const protectedFrom = firstProtectedIndex(messages, options.keepRounds);
  const calls = new Map<string, ToolUseBlockParam>();
  const candidates: (ClearedResult & { image: boolean })[] = [];
  for (let i = 0; i < protectedFrom; i++) {
    const message = messages[i]!;
    if (typeof message.content === 'string') continue;
    for (const block of message.content as ContentBlockParam[]) {
      if (block.type === 'tool_use') calls.set(block.id, block);
      if (block.type !== 'tool_result' || isCleared(block)) continue;
      if (KEPT_TOOLS.has(calls.get(block.tool_use_id)?.name ?? '')) continue;
      const placeholder = clearedPlaceholder(calls.get(block.tool_use_id), block);
      const freed = estimateTokens(block.content ?? '') - estimateTokens(placeholder);
      const image = Array.isArray(block.content) && block.content.some((part) => part.type === 'image');
      if (freed > 16 || image) candidates.push({ toolUseId: block.tool_use_id, placeholder, freed, image });
    }
  }
  candidates.sort((a, b) => Number(b.image) - Number(a.image) || b.freed - a.freed);
  const chosen: ClearedResult[] = [];
  let freed = 0;
  for (const { image: _image, ...candidate } of candidates) {
    if (freed >= options.tokensToFree) break;
    chosen.push(candidate);
    freed += candidate.freed;
  }
  return chosen;
}

/** The history with the chosen results replaced; messages that did not change are shared, not copied. */
export function applyClearing(messages: readonly ChatMessage[], cleared: readonly Pick<ClearedResult, 'toolUseId' | 'placeholder'>[]): ChatMessage[] {
  if (cleared.length === 0) return [...messages];
  const byId = new Map(cleared.map((c) => [c.toolUseId, c.placeholder]));
  return messages.map((message) => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    if (!message.content.some((b) => b.type === 'tool_result' && byId.has(b.tool_use_id))) return message;
    const content = message.content.map((block): ContentBlockParam => {
      if (block.type !== 'tool_result' || !byId.has(block.tool_use_id)) return block;
      const replaced: ToolResultBlockParam = { type: 'tool_result', tool_use_id: block.tool_use_id, content: byId.get(block.tool_use_id)! };
      if (block.is_error) replaced.is_error = true;
      return replaced;
    });
    return { role: 'user', content };
  });
}

/** The index of the first message of the last `keepRounds` rounds (a round starts with the model's turn). */
function firstProtectedIndex(messages: readonly ChatMessage[], keepRounds: number): number {
  if (keepRounds <= 0) return messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && ++seen === keepRounds) return i;
  }
  return 0;
}
