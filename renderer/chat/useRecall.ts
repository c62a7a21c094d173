import { useCallback, useRef } from 'react';

/** A message as ↑ brings it back: its words and the files it @-mentioned (their chips when sent again). */
export interface RecalledMessage {
  text: string;
  mentions: readonly string[];
}

/**
 * ↑/↓ through the person's earlier messages, like a shell: ↑ steps back from the newest, ↓ steps
 * forward and finally returns to what was being typed.
 */
export function useRecall(history: readonly RecalledMessage[]) {
  /** Position in history while browsing (null = not browsing). */
  const position = useRef<number | null>(null);
  const draft = useRef<RecalledMessage>({ text: '', mentions: [] });

  const older = useCallback(
    (current: RecalledMessage): RecalledMessage | null => {
      const at = position.current ?? history.length;
      if (at === 0 || history.length === 0) return null;
      if (position.current === null) draft.current = current;
      position.current = at - 1;
      return history[at - 1]!;
    },
    [history],
  );

  const newer = useCallback((): RecalledMessage | null => {
    if (position.current === null) return null;
    const at = position.current + 1;
    if (at >= history.length) {
      position.current = null;
      return draft.current;
    }
    position.current = at;
    return history[at]!;
  }, [history]);

  const reset = useCallback(() => {
    position.current = null;
    draft.current = { text: '', mentions: [] };
  }, []);

  return { older, newer, reset, browsing: () => position.current !== null };
}
