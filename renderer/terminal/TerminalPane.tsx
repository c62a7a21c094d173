import { useLayoutEffect, useRef } from 'react';
import type { TerminalStore } from './terminalStore';

interface Props {
  store: TerminalStore;
  activeId: string;
  labelledBy: string;
  /** Bumped when the active terminal should take the keyboard focus. */
  focusRequest: number;
}

/**
 * The pane that shows the active tab's xterm.js: its element is moved in here, fitted to the pane
 * now and whenever the pane's size changes (the panel's separator, the window).
 */
export function TerminalPane({ store, activeId, labelledBy, focusRequest }: Props) {
  const pane = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = pane.current;
    const session = store.sessions.get(activeId);
    if (!element || !session) return;
    session.attach(element);
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => session.fit());
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [store, activeId]);

  useLayoutEffect(() => {
    if (focusRequest > 0) store.sessions.get(activeId)?.focus();
  }, [store, activeId, focusRequest]);

  return <div id="terminal-pane" role="tabpanel" aria-labelledby={labelledBy} className="terminal-pane" ref={pane} />;
}
