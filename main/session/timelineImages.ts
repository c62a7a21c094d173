import type { ChatImage } from '../../common/chat';
import { storedRef } from '../images/transcriptImages';

/** The pictures and mentions a task's start or queued record carries (its schema checked them). */
export function messageExtras(record: { images?: ChatImage[]; mentions?: string[] }): { images?: ChatImage[]; mentions?: string[] } {
  const { images = [], mentions = [] } = record;
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
