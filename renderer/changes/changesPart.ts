import { LazyPart } from '../ui/lazyPart';

/** The Changes panel (task cards, diffs, undo): a chunk of its own, loaded when opened or when the window is idle. */
export const changesPart = new LazyPart('changes', () => import('./ChangesPanel'));
