import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { ChatItem } from '../../../common/chat';
import { applyAgentEvent } from '../../../common/chatReducer';
import { withLiveCalls } from '../../../common/liveCalls';
import { LiveCallsTracker } from '../../../main/api/liveCalls';
import { timelineFromRecords } from '../../../main/session/timeline';

/*
 * A window that reloads mid-round gets the transcript (the round's tool_use blocks, not yet their
 * results) and the core's live calls; the cards it rebuilds must be the ones the live chat had,
 * and the events that keep coming must not add a card or output twice.
 */

const at = '2026-01-01T00:00:00.000Z';
const request = { id: 'a1', toolUseId: 'toolu_cat', tool: 'bash', command: 'cat notes.txt', sessionRule: 'command:cat' };

/** The transcript of a round of two calls whose results are not recorded yet. */
const records = [
  { type: 'task', event: 'start', taskId: 't1', text: 'go', at },
  { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, at },
  {
    type: 'message',
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Two commands.' },
        { type: 'tool_use', id: 'toolu_cat', name: 'bash', input: { command: 'cat notes.txt' } },
        { type: 'tool_use', id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 5; echo done' } },
      ],
    },
    at,
  },
];

/** The events the agent emitted for that round until the reload. */
const events: AgentEvent[] = [
  { type: 'task_started', taskId: 't1', text: 'go' },
  { type: 'text', delta: 'Two commands.' },
  { type: 'tool_call', id: 'toolu_cat', name: 'bash', input: { command: 'cat notes.txt' } },
  { type: 'approval_requested', request },
  { type: 'approval_resolved', id: 'a1', decision: 'allow_once' },
  { type: 'tool_output', id: 'toolu_cat', chunk: 'remember the milk\n' },
  { type: 'tool_result', id: 'toolu_cat', name: 'bash', content: 'remember the milk\n\n[exit code: 0]', isError: false },
  { type: 'tool_call', id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 5; echo done' } },
  { type: 'tool_output', id: 'toolu_sleep', chunk: 'sleeping…\n' },
];

const fold = (items: readonly ChatItem[], more: readonly AgentEvent[]): ChatItem[] =>
  more.reduce<ChatItem[]>((acc, event) => applyAgentEvent(acc, event, () => 'x'), [...items]);
const tools = (items: readonly ChatItem[]) => items.filter((item) => item.kind === 'tool');

describe('tool cards rebuilt from the transcript and the live calls', () => {
  const tracker = new LiveCallsTracker();
  for (const event of events) tracker.observe(event);
  const liveChat = fold([], events);

  it('mid-round: the ended call has its result, the running one its output, as in the live chat', () => {
    const rebuilt = withLiveCalls(timelineFromRecords(records), tracker.snapshot().calls);
    expect(tools(rebuilt)).toEqual([
      {
        kind: 'tool',
        id: 'toolu_cat',
        name: 'bash',
        input: { command: 'cat notes.txt' },
        result: { content: 'remember the milk\n\n[exit code: 0]', isError: false },
      },
      { kind: 'tool', id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 5; echo done' }, output: 'sleeping…\n' },
    ]);
    expect(tools(liveChat).map((tool) => tool.kind === 'tool' && tool.result)).toEqual(tools(rebuilt).map((tool) => tool.kind === 'tool' && tool.result));
    // The badge "Allowed once" comes back with the call's approval.
    expect(tracker.snapshot().approvals).toEqual([{ request, decision: 'allow_once' }]);
  });

  it('the events after the reload finish the cards without a second card or a second copy of the output', () => {
    const rebuilt = withLiveCalls(timelineFromRecords(records), tracker.snapshot().calls);
    const after = fold(rebuilt, [
      { type: 'tool_output', id: 'toolu_sleep', chunk: 'done\n' },
      { type: 'tool_result', id: 'toolu_sleep', name: 'bash', content: 'sleeping…\ndone\n\n[exit code: 0]', isError: false },
    ]);
    const cards = tools(after);
    expect(cards.map((card) => card.id)).toEqual(['toolu_cat', 'toolu_sleep']);
    expect(cards[1]).toMatchObject({ output: 'sleeping…\ndone\n', result: { content: 'sleeping…\ndone\n\n[exit code: 0]', isError: false } });
  });

  it('what the transcript recorded wins, and the next task starts with no live calls', () => {
    const recorded = [
      ...records,
      {
        type: 'message',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_cat', content: 'from the transcript', is_error: false }] },
        at,
      },
    ];
    const rebuilt = withLiveCalls(timelineFromRecords(recorded), tracker.snapshot().calls);
    expect(tools(rebuilt)[0]).toMatchObject({ result: { content: 'from the transcript', isError: false } });
    const next = new LiveCallsTracker();
    for (const event of events) next.observe(event);
    next.observe({ type: 'task_started', taskId: 't2', text: 'again' });
    expect(next.snapshot()).toEqual({ calls: [], approvals: [] });
  });
});
