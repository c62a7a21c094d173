import type { ImageBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatImage } from '../../common/chat';
import type { ImageAttachment } from '../../common/contract';
import { checkImage } from './imageFormat';
import type { ImageBlobStore } from './imageBlobs';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type PreparedImages = { ok: true; blocks: ImageBlockParam[]; images: ChatImage[] } | { ok: false; message: string };

/**
 * The pictures of a message as the window sent them, checked again here (the window scales them,
 * but a page is not trusted): real base64, magic bytes that agree with the type, within the API's
 * limits. Each is kept in the blob store; the model gets them as base64 image blocks.
 */
export function prepareImageAttachments(attachments: readonly ImageAttachment[], store: ImageBlobStore): PreparedImages {
  const blocks: ImageBlockParam[] = [];
  const images: ChatImage[] = [];
  for (const [index, attachment] of attachments.entries()) {
    const name = attachments.length === 1 ? 'The picture' : `Picture ${index + 1}`;
    if (!BASE64.test(attachment.data) || attachment.data.length % 4 !== 0) {
      return { ok: false, message: `${name} did not arrive as base64 bytes. Paste or attach it again.` };
    }
    const bytes = Buffer.from(attachment.data, 'base64');
    const checked = checkImage(bytes, attachment.mediaType, name);
    if (!checked.ok) return checked;
    images.push({ ref: store.put(bytes, checked.image.mediaType), mediaType: checked.image.mediaType });
    blocks.push({ type: 'image', source: { type: 'base64', media_type: checked.image.mediaType, data: attachment.data } });
  }
  return { ok: true, blocks, images };
}
