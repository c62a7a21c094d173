import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { api } from '../../api';
import { useCaretAfterRender } from '../useCaretAfterRender';
import { insertMention, mentionAt, mentionsIn } from './mentionToken';

const LIMIT = 12;
const RETRY_MS = 250;

/**
 * @-completion of workspace paths in the composer: typing `@` asks main for matching paths, ↑/↓
 * choose, Enter or Tab insert, Esc closes. Paths chosen here are the message's mentions when sent.
 */
export function useMentions(area: RefObject<HTMLTextAreaElement | null>, text: string, setText: (text: string) => void) {
  const placeCaret = useCaretAfterRender(area);
  const [caret, setCaret] = useState(0);
  const [paths, setPaths] = useState<string[]>([]);
  const [ready, setReady] = useState(true);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const chosen = useRef(new Set<string>());
  const token = mentionAt(text, Math.min(caret, text.length));
  const open = token !== null && dismissed !== token.start;
  const query = open ? token.query : null;

  useEffect(() => {
    if (query === null) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      void api.request('mentions.query', { query, limit: LIMIT }).then((result) => {
        if (!live || !result.ok) return;
        setPaths(result.value.paths);
        setReady(result.value.ready);
        setActive(0);
        // The folder's first listing is still being made: ask again for the rest.
        if (!result.value.ready) timer = setTimeout(ask, RETRY_MS);
      });
    };
    ask();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);

  const accept = (path: string) => {
    if (!token) return;
    const next = insertMention(text, caret, token.start, path);
    chosen.current.add(path);
    setText(next.text);
    setCaret(next.caret);
    placeCaret(next.caret);
  };

  /** Handles the menu's keys; true when the key was the menu's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !token) return false;
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(token.start);
      return true;
    }
    if (paths.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + paths.length) % paths.length);
      return true;
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey) {
      event.preventDefault();
      accept(paths[Math.min(active, paths.length - 1)]!);
      return true;
    }
    return false;
  };

  const trackCaret = (element: HTMLTextAreaElement) => setCaret(element.selectionStart);
  const listId = 'mention-menu';
  const showing = open && (paths.length > 0 || query !== null);
  return {
    open: showing,
    paths,
    ready,
    query: query ?? '',
    active,
    listId,
    optionId: (index: number) => `${listId}-option-${index}`,
    accept,
    onKeyDown,
    trackCaret,
    /** The mentions of the text about to be sent. */
    mentionsOf: (value: string) => mentionsIn(value, chosen.current),
    /** The mentions of a message brought back by ↑ (or of the draft ↓ returns to), in place of the ones chosen so far. */
    restore: (paths: readonly string[]) => {
      chosen.current = new Set(paths);
    },
    reset: () => {
      chosen.current.clear();
      setDismissed(null);
    },
    // The box stays a textbox (an ARIA combobox would rename it); these tie it to the list while it shows.
    inputProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': showing ? listId : undefined,
      'aria-activedescendant': showing && paths.length > 0 ? `${listId}-option-${active}` : undefined,
    },
  };
}

export type Mentions = ReturnType<typeof useMentions>;
