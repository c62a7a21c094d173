/** How long "Step deleted · Undo" stays, as mail apps do. */
export const UNDO_OFFER_MS = 8000;
