import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../../common/agentEvents';
import type { WorkspaceSession } from '../session/workspaceSession';
import { Mailbox, type QueuedMessage } from './mailbox';
import { chatExtrasOf, type MessageAttachments } from './messageAttachments';

/**
 * The person's messages sent while a task runs: each is kept in the transcript and shown as
 * queued, then given to the model at its next step, after the tool results, like a plan edit.
 */
export class MessageQueue {
  private readonly mailbox = new Mailbox();

  constructor(
    private readonly session: WorkspaceSession,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  get queued(): QueuedMessage[] {
    return this.mailbox.queued;
  }

  put(text: string, attachments?: MessageAttachments): QueuedMessage {
    const message = this.mailbox.put(text, attachments?.blocks);
    const extras = chatExtrasOf(attachments);
    this.session.recordTask({ event: 'queued', id: message.id, text, ...extras });
    this.emit({ type: 'message_queued', ...message, ...extras });
    return message;
  }

  /** Moves every queued message into the next user message: false when none waited. */
  takeInto(pending: ContentBlockParam[]): boolean {
    const taken = this.mailbox.take();
    if (!taken) return false;
    pending.push(...taken.content);
    this.session.recordTask({ event: 'queue_taken', ids: taken.ids });
    this.emit({ type: 'message_taken', ids: taken.ids });
    return true;
  }

  /** At a task's end: messages still waiting are not sent, and the person is told. */
  dropWaiting(): void {
    if (!this.mailbox.isEmpty) this.emit({ type: 'message_dropped', ids: this.mailbox.drop() });
  }
}
