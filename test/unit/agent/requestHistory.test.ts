import { describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT, requestHistory } from '../../../main/agent/history';
import type { ChatMessage } from '../../../main/agent/messageTypes';

const SIGNATURE = 'c2lnbmVkIGJ5IHRoZSBBUEk=';

/** A stored history of a thinking model's tool loop, as the session keeps it. */
function thinkingHistory(): ChatMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'look twice' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'List first.', signature: SIGNATURE },
        { type: 'text', text: 'Listing.' },
        { type: 'tool_use', id: 'toolu_1', name: 'look', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
    {
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'EncryptedReasoning0001' },
        { type: 'tool_use', id: 'toolu_2', name: 'look', input: { again: true } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'a.txt' }] },
  ];
}

describe('the history a request sends', () => {
  it('marks its last block as the cache breakpoint, and the stored history stays without one', () => {
    const stored = thinkingHistory();
    const before = structuredClone(stored);
    const sent = requestHistory(stored);
    expect(sent.at(-1)!.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'a.txt', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(sent).match(/cache_control/g)).toHaveLength(1);
    expect(stored).toEqual(before);
    // A second request marks its own end; the first mark is not left behind.
    stored.push({ role: 'assistant', content: [{ type: 'text', text: 'Same twice.' }] }, { role: 'user', content: [{ type: 'text', text: 'thanks' }] });
    const next = requestHistory(stored);
    expect(JSON.stringify(next).match(/cache_control/g)).toHaveLength(1);
    expect(next.at(-1)!.content).toEqual([{ type: 'text', text: 'thanks', cache_control: { type: 'ephemeral' } }]);
  });

  it('sends every thinking block exactly as it came, and never marks one as a breakpoint', () => {
    const stored = thinkingHistory().slice(0, 2);
    stored[1] = { role: 'assistant', content: [{ type: 'thinking', thinking: 'Still thinking.', signature: SIGNATURE }] };
    const sent = requestHistory(thinkingHistory());
    expect(sent[1]!.content).toEqual(thinkingHistory()[1]!.content);
    expect(sent[3]!.content).toEqual(thinkingHistory()[3]!.content);
    expect(requestHistory(stored).at(-1)!.content).toEqual([{ type: 'thinking', thinking: 'Still thinking.', signature: SIGNATURE }]);
  });

  it('answers a call left without a result, and the answer carries the breakpoint', () => {
    const stored = thinkingHistory().slice(0, 4);
    const sent = requestHistory(stored);
    expect(sent).toHaveLength(5);
    expect(sent.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: INTERRUPTED_RESULT, is_error: true, cache_control: { type: 'ephemeral' } }],
    });
    expect(stored).toHaveLength(4);
  });

  it('sends a valid history as it is stored, and makes any other valid first', () => {
    const stored = thinkingHistory();
    const sent = requestHistory(stored);
    expect(JSON.stringify(sent.slice(0, -1))).toBe(JSON.stringify(stored.slice(0, -1)));

    const user = (content: ChatMessage['content']): ChatMessage => ({ role: 'user', content });
    const assistant = (content: ChatMessage['content']): ChatMessage => ({ role: 'assistant', content });
    const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'look', input: {} });
    const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'a.txt' });
    const said = (text: string) => ({ type: 'text' as const, text });
    const mark = { cache_control: { type: 'ephemeral' as const } };
    const cases: [string, ChatMessage[], unknown[]][] = [
      ['text as a string', [user('hi')], [user([{ ...said('hi'), ...mark }])]],
      ['blank text', [user([said('hi'), said('  ')])], [user([{ ...said('hi'), ...mark }])]],
      ['the model first', [assistant([said('hello')]), user([said('hi')])], [user([{ ...said('hi'), ...mark }])]],
      ['two of one role', [user([said('a')]), user([said('b')])], [user([said('a'), { ...said('b'), ...mark }])]],
      [
        'results out of order',
        [user([said('go')]), assistant([call('t1'), call('t2')]), user([result('t2'), said('note'), result('t1')])],
        [user([said('go')]), assistant([call('t1'), call('t2')]), user([result('t1'), result('t2'), { ...said('note'), ...mark }])],
      ],
      [
        'a result of no call',
        [user([said('go')]), assistant([said('no call')]), user([result('t9'), said('next')])],
        [user([said('go')]), assistant([said('no call')]), user([{ ...said('next'), ...mark }])],
      ],
      [
        'one id twice',
        [user([said('go')]), assistant([call('t1'), call('t1')]), user([result('t1'), { ...result('t1'), content: 'b.txt' }])],
        [user([said('go')]), assistant([call('t1'), call('t1')]), user([result('t1'), { ...result('t1'), ...mark }])],
      ],
    ];
    for (const [what, history, expected] of cases) expect(requestHistory(history), what).toEqual(expected);
  });

  it('checks again what changed in a history since its last request: messages added, or replaced in place', () => {
    const stored = thinkingHistory();
    requestHistory(stored);
    // The next round's answer and results are appended: a call without its result is answered.
    stored.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'look', input: {} }] },
      { role: 'user', content: [{ type: 'text', text: 'and then?' }] },
    );
    expect(requestHistory(stored).at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_3', content: INTERRUPTED_RESULT, is_error: true },
      { type: 'text', text: 'and then?', cache_control: { type: 'ephemeral' } },
    ]);
    // A compaction rebuilds the same array: a kept message now answered by an orphaned result.
    const kept = stored.slice(0, 2);
    stored.length = 0;
    stored.push(...kept, {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_9', content: 'gone' },
        { type: 'text', text: 'summary' },
      ],
    });
    expect(requestHistory(stored).at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: INTERRUPTED_RESULT, is_error: true },
      { type: 'text', text: 'summary', cache_control: { type: 'ephemeral' } },
    ]);
    // One message replaced by a valid one: sent as stored again.
    stored[2] = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] };
    expect(requestHistory(stored)).toEqual([
      ...stored.slice(0, 2),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt', cache_control: { type: 'ephemeral' } }] },
    ]);
  });
});
