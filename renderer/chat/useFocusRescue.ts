import { useEffect, useRef, type RefObject } from 'react';

/**
 * When the element that had the focus inside `panel` goes away (an answered approval card, the
 * Stop button of a task that ended), the focus would fall to the page's body and the next Tab
 * would start from the top of the window. Instead it goes to `next()`: the next card, else the
 * message box. Checked whenever `deps` change, after the children's own effects (a card that
 * takes the focus itself keeps it).
 */
export function useFocusRescue(panel: RefObject<HTMLElement | null>, next: () => { focus(): void } | null | undefined, deps: readonly unknown[]): void {
  const inside = useRef(false);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      inside.current = event.target instanceof Node && (panel.current?.contains(event.target) ?? false);
    };
    // A blur to nowhere by the person (a click on the transcript's text, to select it) is not a loss:
    // the element is still there. One removed from the page is.
    const onFocusOut = (event: FocusEvent) => {
      const target = event.target;
      if (event.relatedTarget === null && target instanceof Node) queueMicrotask(() => target.isConnected && (inside.current = false));
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
    };
  }, [panel]);

  const nextRef = useRef(next);
  nextRef.current = next;
  useEffect(() => {
    const focused = document.activeElement;
    const lost = focused === null || focused === document.body || focused === document.documentElement;
    if (lost && inside.current) nextRef.current()?.focus();
  }, deps);
}
