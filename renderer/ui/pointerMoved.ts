import type { MouseEvent } from 'react';

/**
 * Whether a mouse event comes from a pointer that really moved. Chromium sends a mouse move with
 * no movement when content appears under a resting pointer (a menu opening by keyboard over it);
 * taking that as hover would move the highlight away from the item the keys chose.
 */
export function pointerMoved(event: MouseEvent): boolean {
  return event.movementX !== 0 || event.movementY !== 0;
}
