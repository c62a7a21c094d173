import type { ImageAttachment } from '../../../common/contract';
import type { MessageAttachments } from '../../agent/messageAttachments';
import { prepareImageAttachments } from '../../images/imageAttachments';
import { mentionBlocks } from '../../mentions/mentionBlocks';
import type { WorkspaceSession } from '../../session/workspaceSession';

/** A message's pictures (checked and kept) and @-mentioned files (read), ready for the agent. */
export async function prepareMessageAttachments(
  session: WorkspaceSession,
  images: readonly ImageAttachment[] = [],
  mentions: readonly string[] = [],
): Promise<{ ok: true; value: MessageAttachments } | { ok: false; message: string }> {
  const pictures = prepareImageAttachments(images, session.images);
  if (!pictures.ok) return pictures;
  const unique = [...new Set(mentions)];
  const files = await mentionBlocks(session.workspace, unique);
  return {
    ok: true,
    value: {
      blocks: [...pictures.blocks, ...files],
      ...(pictures.images.length ? { images: pictures.images } : {}),
      ...(unique.length ? { mentions: unique } : {}),
    },
  };
}
