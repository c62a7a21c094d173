import { LazyPart } from '../ui/lazyPart';

/**
 * The plan board and the chat (with the transcript's virtual list and the tool cards' diffs): a
 * chunk fetched from the start, beside the first chunk, so that the window's frame paints
 * without waiting for it while the folder itself is still being asked for.
 */
export const workspacePart = new LazyPart('workspace', () => import('./workspacePanes'));
