import type { AgentEvent } from '../../common/agentEvents';
import type { ChatItem } from '../../common/chat';
import { applyAgentEvent } from '../../common/chatReducer';

/** The events that make up the answer streaming now; the transcript has them once its round is kept. */
const STREAMED = new Set<AgentEvent['type']>(['text', 'thinking', 'citations', 'web_search', 'web_search_results', 'stream_retry']);

/**
 * Numbers the open session's agent events as they go out, and keeps the part of the answer the
 * transcript does not have yet: a window that loads mid-answer shows all of it, and drops exactly
 * the events its history already holds (those numbered up to `seq`).
 */
export class LiveAnswerTracker {
  private count = 0;
  private streamed: AgentEvent[] = [];

  /** The number of the last event observed. */
  get seq(): number {
    return this.count;
  }

  /** Observes the next event; returns its number. */
  observe(event: AgentEvent): number {
    // `usage` closes a round: its answer is kept in the transcript in the same tick (agent.ts, keepAnswer).
    if (event.type === 'task_started' || event.type === 'task_finished' || event.type === 'usage') this.streamed = [];
    else if (STREAMED.has(event.type)) this.streamed.push(event);
    return ++this.count;
  }

  /** `items` (the chat the transcript has) with the answer streaming now below it. */
  withStreamed(items: readonly ChatItem[]): ChatItem[] {
    let ids = 0;
    return this.streamed.reduce<ChatItem[]>((chat, event) => applyAgentEvent(chat, event, () => `streaming-${++ids}`), [...items]);
  }
}
