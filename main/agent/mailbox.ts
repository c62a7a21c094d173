import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { randomUUID } from 'node:crypto';

export interface QueuedMessage {
  id: string;
  text: string;
}

/**
 * The messages the person sent while a task runs, in order, each with what it carries for the
 * model besides its text (pictures, mentioned files). The loop takes them all at its next step.
 */
export class Mailbox {
  private waiting: QueuedMessage[] = [];
  private readonly blocks = new Map<string, ContentBlockParam[]>();

  get queued(): QueuedMessage[] {
    return [...this.waiting];
  }

  get isEmpty(): boolean {
    return this.waiting.length === 0;
  }

  put(text: string, blocks: readonly ContentBlockParam[] = []): QueuedMessage {
    const message = { id: randomUUID(), text };
    this.waiting.push(message);
    if (blocks.length > 0) this.blocks.set(message.id, [...blocks]);
    return message;
  }

  /** Every waiting message as the blocks of a user turn, emptying the box; null when none waits. */
  take(): { ids: string[]; content: ContentBlockParam[] } | null {
    if (this.waiting.length === 0) return null;
    const taken = this.waiting;
    this.waiting = [];
    const content = taken.flatMap((message) => [...textBlock(message.text), ...(this.blocks.get(message.id) ?? [])]);
    this.blocks.clear();
    return { ids: taken.map((m) => m.id), content };
  }

  /** Empties the box without sending: the ids of what was dropped. */
  drop(): string[] {
    const ids = this.waiting.map((m) => m.id);
    this.waiting = [];
    this.blocks.clear();
    return ids;
  }
}

/** The person's words as a block; none for a message that is only pictures (the API refuses empty text). */
export function textBlock(text: string): ContentBlockParam[] {
  return text.trim() === '' ? [] : [{ type: 'text', text }];
}
