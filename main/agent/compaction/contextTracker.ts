import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../../common/contextWindow';
import type { ChatMessage } from '../messageTypes';

/**
 * How big the next request is: what the API counted for the last one (input + cache read + cache
 * creation) plus an estimate of the messages added since. After the history is rebuilt (a
 * compaction, a resumed session) there is no baseline and the whole request is estimated.
 */
export class ContextTracker {
  private baseline: { tokens: number; messageCount: number } | null = null;
  /** The service's own limit, learned from a "prompt is too long: N tokens > M maximum" answer. */
  private learnedLimit: number | null = null;
  /** How much the service's count exceeds the estimate, learned from the same answer. */
  private scale = 1;

  /** After an answer: `messageCount` messages were sent and the API counted `usage`. */
  observe(usage: Pick<Usage, 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>, messageCount: number): void {
    const tokens = (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
    this.baseline = tokens > 0 ? { tokens, messageCount } : null;
  }

  /**
   * Tunes the estimate to the service's own counting (its tokenizer, images), from the last
   * request it counted. Costs a pass over the history, so it runs before a compaction, not every round.
   */
  calibrate(prefixTokens: number, messages: readonly ChatMessage[]): void {
    const base = this.baseline;
    if (!base || base.messageCount > messages.length) return;
    let raw = prefixTokens;
    for (let i = 0; i < base.messageCount; i++) raw += estimateTokens(messages[i]);
    if (raw > 0) this.scale = Math.min(8, Math.max(0.25, base.tokens / raw));
  }

  /** The history was replaced: the last count no longer describes it. */
  reset(): void {
    this.baseline = null;
  }

  /** A refusal said how big the request really was and what the limit is. */
  learnFromRefusal(reported: { tokens: number; limit: number } | null, estimated: number): void {
    if (!reported) return;
    this.learnedLimit = reported.limit;
    if (estimated > 0 && reported.tokens > estimated) this.scale = Math.min(8, reported.tokens / estimated);
  }

  /** The window to plan with: the setting, or the service's limit when it said a smaller one. */
  window(configured: number): number {
    return this.learnedLimit !== null ? Math.min(configured, this.learnedLimit) : configured;
  }

  /** Tokens of the next request: `prefixTokens` is the system prompt and tools. */
  estimate(prefixTokens: number, messages: readonly ChatMessage[]): number {
    const base = this.baseline;
    if (base && base.messageCount <= messages.length) {
      let added = 0;
      for (let i = base.messageCount; i < messages.length; i++) added += estimateTokens(messages[i]);
      return base.tokens + Math.ceil(added * this.scale);
    }
    return this.estimateWhole(prefixTokens, messages);
  }

  estimateWhole(prefixTokens: number, messages: readonly ChatMessage[]): number {
    let total = prefixTokens;
    for (const message of messages) total += estimateTokens(message);
    return Math.ceil(total * this.scale);
  }
}

/** "prompt is too long", "request_too_large" or a 413: the request did not fit the model's window. */
export function isContextOverflow(message: string): boolean {
  return /prompt is too long|request_too_large|request too large|too many tokens|\b413\b|context (window|length)/i.test(message);
}

/** "prompt is too long: 31480 tokens > 30000 maximum" → both numbers. */
export function parseOverflow(message: string): { tokens: number; limit: number } | null {
  const match = /(\d[\d,]*)\s*tokens?\s*>\s*(\d[\d,]*)/i.exec(message);
  if (!match) return null;
  return { tokens: Number(match[1]!.replace(/,/g, '')), limit: Number(match[2]!.replace(/,/g, '')) };
}
