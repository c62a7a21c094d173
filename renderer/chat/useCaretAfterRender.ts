import { useCallback, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Puts the caret (and, if asked, the focus) in the message box once a new text set by code is on
 * screen. Not a frame later: a key typed in that frame would land where the browser left the
 * caret (the end of the box) instead of after the inserted @path or recalled message.
 */
export function useCaretAfterRender(area: RefObject<HTMLTextAreaElement | null>): (at: number, focus?: boolean) => void {
  const pending = useRef<{ at: number; focus: boolean } | null>(null);

  const apply = useCallback(() => {
    const want = pending.current;
    const element = area.current;
    if (!want || !element) return;
    pending.current = null;
    if (want.focus) element.focus();
    element.setSelectionRange(want.at, want.at);
  }, [area]);

  // Runs after every render, before the browser handles the next key.
  useLayoutEffect(apply);

  return useCallback(
    (at: number, focus = false) => {
      pending.current = { at, focus };
      // A text that did not change renders nothing: then the next frame places the caret.
      requestAnimationFrame(apply);
    },
    [apply],
  );
}
