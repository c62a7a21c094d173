import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatImage } from '../../common/chat';

/** What a person's message carries to the model besides its text, and what the chat shows of it. */
export interface MessageAttachments {
  /** Blocks that follow the text in the user turn: pictures, the mentioned files' contents. */
  blocks: ContentBlockParam[];
  images?: ChatImage[];
  mentions?: string[];
}

/** The fields a transcript record and a chat event carry, left out when empty. */
export function chatExtrasOf(attachments: MessageAttachments | undefined): { images?: ChatImage[]; mentions?: string[] } {
  return {
    ...(attachments?.images?.length ? { images: attachments.images } : {}),
    ...(attachments?.mentions?.length ? { mentions: attachments.mentions } : {}),
  };
}
