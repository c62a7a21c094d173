import { ErrorCodes } from '../../../common/contract';
import { fail, ok } from '../../../common/result';
import { MentionIndex } from '../../mentions/mentionIndex';
import type { HandlerContext } from '../handlerContext';
import type { Handlers } from '../dispatch';

const NO_FOLDER = 'No folder is open. Open a folder first.';

/** What the composer needs beyond text: @-completion of workspace paths, and the chat's pictures. */
export function attachmentHandlers(core: Pick<HandlerContext, 'currentSession'>): Pick<Handlers, 'mentions.query' | 'chat.image'> {
  // One index, for the open folder; a new folder gets a new one.
  let index: MentionIndex | null = null;
  return {
    'mentions.query': ({ query, limit }) => {
      const session = core.currentSession;
      if (!session) return fail(ErrorCodes.noWorkspace, NO_FOLDER);
      if (index?.root !== session.workspace) {
        index?.dispose();
        index = new MentionIndex(session.workspace);
      }
      return ok(index.query(query, limit ?? 20));
    },
    'chat.image': ({ ref }) => {
      const session = core.currentSession;
      if (!session) return fail(ErrorCodes.noWorkspace, NO_FOLDER);
      const image = session.images.get(ref);
      if (!image) return fail(ErrorCodes.badRequest, `The picture "${ref}" is not in Keel's data folder any more (it may have been deleted).`);
      return ok({ mediaType: image.mediaType, data: image.bytes.toString('base64') });
    },
  };
}
