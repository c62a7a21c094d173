import { settledOutcome } from '../../common/plan/sessionState';
import { todoItems } from './tools/toolInfo';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import type { AgentState } from '../../common/agentEvents';
import type { ChatItem } from '../../common/chat';
import type { PlanSnapshot } from '../../common/contract';
import type { PlanItem } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { ArrowDownIcon } from '../ui/icons';
import { useLazyPart } from '../ui/lazyPart';
import { PartFallback } from '../ui/PartFallback';
import { markdownPart } from './markdown/markdownPart';
import { ActivityRow } from './messages/ActivityRow';
import { AssistantMessage } from './messages/AssistantMessage';
import { ThinkingRow } from './messages/ThinkingRow';
import { WebSearchRow } from './messages/WebSearchRow';
import { NoticeRow } from './messages/NoticeRow';
import { CompactionRow } from './messages/CompactionRow';
import { OutcomeRow } from './messages/OutcomeRow';
import { UserMessage } from './messages/UserMessage';
import { ToolCard } from './tools/ToolCard';

interface TranscriptProps {
  items: readonly ChatItem[];
  running: boolean;
  state: AgentState;
  plan: PlanSnapshot | null;
  unfinished: ReadonlyMap<string, readonly PlanItem[]>;
  retry: { attempt: number; reason: string } | null;
}

const ACTIVITY = '\u0000activity';
/** How close to the end counts as "at the end" (px): new content then keeps the view at the end. */
const AT_END = 24;

/** Rough heights before a row is measured; the list corrects itself as rows render. */
function estimate(item: ChatItem | undefined): number {
  if (!item) return 36;
  switch (item.kind) {
    case 'user':
      return 56 + Math.min(14, item.text.split('\n').length) * 6;
    case 'assistant':
      return 28 + Math.ceil(item.text.length / 90) * 20;
    case 'tool':
    case 'notice':
    case 'compaction':
    case 'thinking':
    case 'web_search':
      return 40;
    case 'outcome':
      return item.outcome === 'done' || item.outcome === 'cancelled' ? 36 : 140;
  }
}

/**
 * The conversation, virtualized: only the rows in view (and a few around) are in the DOM, each
 * measured as it renders. It stays at the end while the agent writes, unless the person scrolled
 * up; then "Jump to latest" brings them back.
 */
export function Transcript(props: TranscriptProps) {
  // The model's answers are markdown, from a chunk of their own: until it is there, the list's
  // place stands empty (the same box), then the rows come at once, in their real heights.
  const needsMarkdown = props.items.some((item) => item.kind === 'assistant');
  const markdown = useLazyPart(markdownPart, needsMarkdown);
  if (needsMarkdown && markdown.status !== 'ready')
    return (
      <div className="transcript">
        <PartFallback part="markdown" state={markdown} className="transcript-scroll" />
      </div>
    );
  return <TranscriptRows {...props} />;
}

function TranscriptRows({ items, running, state, plan, unfinished, retry }: TranscriptProps) {
  const { t } = useI18n();
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = items.length + (running ? 1 : 0);
  const lastOutcome = useMemo(() => {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind === 'outcome') return item.id;
      if (item.kind === 'user' && !item.queued && !item.notSent) return null;
    }
    return null;
  }, [items]);
  // Each todo card shows the change from the agent's previous plan.
  const previousTodo = useMemo(() => {
    const map = new Map<string, unknown>();
    let previous: unknown;
    for (const item of items) {
      // A finished plan is not carried into the next task (it starts with an empty plan): no diff across.
      if (item.kind === 'outcome' && (todoItems(previous) ?? []).every((step) => step.status === 'completed')) previous = undefined;
      if (item.kind !== 'tool' || item.name !== 'todo') continue;
      if (previous !== undefined) map.set(item.id, previous);
      if (!item.result?.isError) previous = item.input;
    }
    return map;
  }, [items]);

  const getItemKey = useCallback((index: number) => items[index]?.id ?? ACTIVITY, [items]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimate(items[index]),
    getItemKey,
    overscan: 4,
    paddingStart: 16,
    paddingEnd: 16,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END,
    useFlushSync: false,
  });

  // Whether the view follows the end. Only the person unsticks it (wheel, keys, touch, scrollbar);
  // reaching the end again, or "Jump to latest", sticks it again.
  const stick = useRef(true);
  const [following, setFollowing] = useState(true);
  const [farFromEnd, setFarFromEnd] = useState(false);
  const dragging = useRef(false);
  const follow = useCallback((value: boolean) => {
    stick.current = value;
    setFollowing(value);
  }, []);
  const pin = useCallback(() => {
    const element = scrollRef.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, []);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    setFarFromEnd(distance > AT_END);
    if (distance <= AT_END) follow(true);
    else if (dragging.current) follow(false);
  }, [follow]);

  const intent = {
    onWheel: (event: WheelEvent) => {
      if (event.deltaY < 0 && (scrollRef.current?.scrollTop ?? 0) > 0) follow(false);
    },
    onTouchMove: () => {
      if ((scrollRef.current?.scrollTop ?? 0) > 0) follow(false);
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (['ArrowUp', 'PageUp', 'Home'].includes(event.key) && (scrollRef.current?.scrollTop ?? 0) > 0) follow(false);
    },
    // A press on the scroll bar (the scroller itself, not a row) then a scroll is a drag of it.
    onPointerDown: (event: PointerEvent) => {
      if (event.target === scrollRef.current) dragging.current = true;
    },
    onPointerUp: () => {
      dragging.current = false;
    },
  };

  // New rows, a streaming answer, live output, a card opened at the end: the view stays at the end.
  useLayoutEffect(pin, [items, running, pin]);
  useEffect(() => {
    const element = scrollRef.current;
    const inner = element?.firstElementChild;
    if (!element || !inner) return;
    const observer = new ResizeObserver(pin);
    observer.observe(inner);
    observer.observe(element);
    return () => observer.disconnect();
  }, [pin]);

  const jump = () => {
    follow(true);
    virtualizer.scrollToEnd();
    pin();
  };
  const atEnd = following || !farFromEnd;

  // (Messages waiting to be taken stay below the answer that streams.)
  const lastBody = items.findLast((item) => !(item.kind === 'user' && item.queued));
  const streaming = lastBody?.kind === 'assistant' && lastBody.streaming === true;
  return (
    <div className="transcript">
      <div ref={scrollRef} className="transcript-scroll" onScroll={onScroll} {...intent} tabIndex={0} role="region" aria-label={t('chat.transcript')}>
        <div className="transcript-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="transcript-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {item ? (
                  <Row
                    item={item}
                    running={running}
                    previousTodo={previousTodo.get(item.id)}
                    actionable={!running && item.id === lastOutcome}
                    plan={plan}
                    unfinished={unfinished.get(item.id) ?? null}
                  />
                ) : (
                  <ActivityRow state={state} streaming={streaming} retry={retry} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {!atEnd && (
        <button type="button" className="jump-latest" onClick={jump}>
          <ArrowDownIcon size={14} />
          {t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  );
}

function Row({
  item,
  running,
  previousTodo,
  actionable,
  plan,
  unfinished,
}: {
  item: ChatItem;
  running: boolean;
  previousTodo: unknown;
  actionable: boolean;
  plan: PlanSnapshot | null;
  unfinished: readonly PlanItem[] | null;
}) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} />;
    case 'assistant':
      return <AssistantMessage item={item} />;
    case 'tool':
      return <ToolCard item={item} running={running} previousTodo={previousTodo} />;
    case 'notice':
      return <NoticeRow item={item} planItems={plan?.items} />;
    case 'thinking':
      return <ThinkingRow item={item} />;
    case 'web_search':
      return <WebSearchRow item={item} />;
    case 'compaction':
      return <CompactionRow item={item} />;
    case 'outcome': {
      // The latest stop shows the plan as it is now (the person may have finished it on the board).
      const openNow = actionable && plan ? plan.items.filter((step) => step.status !== 'completed') : null;
      // The latest "done" with steps still open is not done (issue 16.4): the same derivation as the board's.
      const settled = openNow ? settledOutcome(item.outcome, openNow.length, item.openSteps) : item.outcome;
      const shown = item.outcome === 'done' && settled === 'stopped_unfinished' ? { ...item, outcome: settled } : item;
      const open = openNow && (shown.outcome === 'stopped_unfinished' || shown.outcome === 'cancelled') ? openNow : unfinished;
      return <OutcomeRow item={shown} actionable={actionable} unfinished={open} />;
    }
  }
}
