import type { ChatImage } from '../../common/chat';
import { isImageRef } from '../images/imageBlobs';
import { storedRef } from '../images/transcriptImages';

/** The pictures and mentions a task's start or queued record carries, checked (the file may have been edited). */
export function messageExtras(record: Record<string, unknown>): { images?: ChatImage[]; mentions?: string[] } {
  const images = Array.isArray(record.images)
    ? (record.images as unknown[]).filter((image): image is ChatImage => isImageRef((image as ChatImage | null)?.ref) && typeof (image as ChatImage).mediaType === 'string')
    : [];
  const mentions = Array.isArray(record.mentions) ? (record.mentions as unknown[]).filter((path): path is string => typeof path === 'string') : [];
  return { ...(images.length ? { images } : {}), ...(mentions.length ? { mentions } : {}) };
}

/** The pictures a stored tool result holds, for its card. */
export function resultImages(content: unknown): { images?: ChatImage[] } {
  if (!Array.isArray(content)) return {};
  const images = content.flatMap((block: unknown): ChatImage[] => {
    const ref = storedRef(block);
    return ref ? [{ ref, mediaType: String((block as { source: { media_type?: unknown } }).source.media_type) }] : [];
  });
  return images.length ? { images } : {};
}
