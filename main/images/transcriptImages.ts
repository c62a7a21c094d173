import type { ContentBlockParam, ImageBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage } from '../agent/messageTypes';
import { checkImage } from './imageFormat';
import { isImageRef, type ImageBlobStore, type ImageRef } from './imageBlobs';

/** How a transcript line refers to a picture kept in the blob store. Never sent to the API. */
interface StoredImageBlock {
  type: 'image';
  source: { type: 'keel_blob'; ref: ImageRef; media_type: string };
}

export const MISSING_IMAGE_TEXT = "[A picture was here, but its saved copy is missing from Keel's data folder, so it cannot be shown again.]";

/**
 * The message as a transcript line keeps it: every base64 picture (in the message or inside a
 * tool result) goes to the blob store and is replaced by its name. The message itself is not changed.
 */
export function messageForTranscript(message: ChatMessage, store: ImageBlobStore): ChatMessage {
  if (typeof message.content === 'string' || !message.content.some(holdsImage)) return message;
  return { ...message, content: message.content.map((block) => storeBlock(block, store)) } as ChatMessage;
}

/** The message as the model needs it again: every stored picture read back as base64. */
export function messageFromTranscript(message: ChatMessage, store: ImageBlobStore): ChatMessage {
  if (typeof message.content === 'string' || !message.content.some(holdsImage)) return message;
  return { ...message, content: message.content.map((block) => loadBlock(block, store)) } as ChatMessage;
}

function holdsImage(block: ContentBlockParam): boolean {
  if (block.type === 'image') return true;
  return block.type === 'tool_result' && Array.isArray(block.content) && block.content.some((inner) => inner.type === 'image');
}

function storeBlock<B extends ContentBlockParam>(block: B, store: ImageBlobStore): B {
  if (block.type === 'image') return storeImage(block, store) as unknown as B;
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return { ...block, content: block.content.map((inner) => (inner.type === 'image' ? (storeImage(inner, store) as unknown as ImageBlockParam) : inner)) };
  }
  return block;
}

function storeImage(block: ImageBlockParam, store: ImageBlobStore): ImageBlockParam | StoredImageBlock {
  if (block.source.type !== 'base64') return block;
  const bytes = Buffer.from(block.source.data, 'base64');
  const checked = checkImage(bytes);
  if (!checked.ok) return block;
  return { type: 'image', source: { type: 'keel_blob', ref: store.put(bytes, checked.image.mediaType), media_type: checked.image.mediaType } };
}

function loadBlock<B extends ContentBlockParam>(block: B, store: ImageBlobStore): B {
  if (block.type === 'image') return loadImage(block, store) as unknown as B;
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return { ...block, content: block.content.map((inner) => (inner.type === 'image' ? loadImage(inner, store) : inner)) } as B;
  }
  return block;
}

function loadImage(block: ImageBlockParam, store: ImageBlobStore): ImageBlockParam | { type: 'text'; text: string } {
  const ref = storedRef(block);
  if (ref === null) return block;
  const blob = store.get(ref);
  if (!blob) return { type: 'text', text: MISSING_IMAGE_TEXT };
  return { type: 'image', source: { type: 'base64', media_type: blob.mediaType, data: blob.bytes.toString('base64') } };
}

/** The blob name of a stored picture block, or null for any other block. */
export function storedRef(block: unknown): ImageRef | null {
  const source = (block as { type?: unknown; source?: { type?: unknown; ref?: unknown } } | null)?.source;
  if ((block as { type?: unknown } | null)?.type !== 'image' || source?.type !== 'keel_blob') return null;
  return isImageRef(source.ref) ? source.ref : null;
}
