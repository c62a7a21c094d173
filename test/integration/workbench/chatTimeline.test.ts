import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { ChatItem } from '../../../common/chat';
import { applyAgentEvent } from '../../../common/chatReducer';
import { timelineFromRecords } from '../../../main/session/timeline';
import { readTranscript } from '../../../main/session/transcript';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { cut, redactedThinking, reply, text, thinking, toolUse } from '../../support/scriptedAnthropic';
import { gatedTool, realTools, runTask, send, startTask, value, waitFor } from './support';

// The chat as the person sees it: folded live from agent events, and rebuilt from the transcript.

function fold(events: AgentEvent[], start: ChatItem[] = []): ChatItem[] {
  let n = 0;
  return events.reduce<ChatItem[]>((items, event) => applyAgentEvent(items, event, () => `gen-${++n}`), start);
}

describe('applyAgentEvent (the live chat)', () => {
  it('streamed text accumulates in one assistant item, which stops streaming when a tool is called', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'hi' },
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo, ' },
      { type: 'text', delta: 'world.' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'hi' },
      { kind: 'assistant', id: 'gen-1', text: 'Hello, world.', streaming: true },
    ]);
    const after = applyAgentEvent(items, { type: 'tool_call', id: 'toolu_1', name: 'bash', input: { command: 'ls' } }, () => 'x');
    expect(after.slice(1)).toEqual([
      { kind: 'assistant', id: 'gen-1', text: 'Hello, world.' },
      { kind: 'tool', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
    ]);
    // Pure: the input list is untouched.
    expect(items[1]).toMatchObject({ streaming: true });
  });

  it('a stream_retry drops the partial text of the round; the retried text starts afresh', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'hi' },
      { type: 'text', delta: 'Half an ans' },
      { type: 'stream_retry', attempt: 1, reason: 'socket hang up' },
      { type: 'text', delta: 'The whole answer.' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'hi' },
      { kind: 'assistant', id: 'gen-2', text: 'The whole answer.', streaming: true },
    ]);
    // A retry with nothing streamed yet drops nothing.
    const before = fold([{ type: 'task_started', taskId: 't1', text: 'hi' }]);
    expect(applyAgentEvent(before, { type: 'stream_retry', attempt: 1, reason: 'x' }, () => 'x')).toEqual(before);
  });

  it('tool output accumulates on its tool, and the result attaches to it (also when it is not the last item)', () => {
    const items = fold([
      { type: 'tool_call', id: 'a', name: 'bash', input: { command: 'make' } },
      { type: 'tool_call', id: 'b', name: 'read_file', input: { path: 'x' } },
      { type: 'tool_output', id: 'a', chunk: 'compiling…\n' },
      { type: 'tool_output', id: 'a', chunk: 'linking…\n' },
      { type: 'tool_result', id: 'a', name: 'bash', content: 'exit code 0', isError: false },
      { type: 'tool_result', id: 'b', name: 'read_file', content: 'no such file', isError: true },
    ]);
    expect(items).toEqual([
      { kind: 'tool', id: 'a', name: 'bash', input: { command: 'make' }, output: 'compiling…\nlinking…\n', result: { content: 'exit code 0', isError: false } },
      { kind: 'tool', id: 'b', name: 'read_file', input: { path: 'x' }, result: { content: 'no such file', isError: true } },
    ]);
  });

  it('live output is capped, keeping its end', () => {
    const chunk = 'x'.repeat(40 * 1024);
    const items = fold([
      { type: 'tool_call', id: 'a', name: 'bash', input: {} },
      { type: 'tool_output', id: 'a', chunk },
      { type: 'tool_output', id: 'a', chunk: `${chunk}END` },
    ]);
    const output = (items[0] as Extract<ChatItem, { kind: 'tool' }>).output!;
    expect(output.length).toBe(64 * 1024);
    expect(output.endsWith('END')).toBe(true);
  });

  it('a queued message is flagged until taken; taken clears the flag', () => {
    const queued = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'tool_call', id: 'a', name: 'bash', input: {} },
      { type: 'message_queued', id: 'm1', text: 'also this' },
    ]);
    expect(queued.at(-1)).toEqual({ kind: 'user', id: 'm1', text: 'also this', queued: true });
    const taken = applyAgentEvent(queued, { type: 'message_taken', ids: ['m1'] }, () => 'x');
    expect(taken.at(-1)).toEqual({ kind: 'user', id: 'm1', text: 'also this' });
  });

  it('dropped marks a queued message as not sent', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'message_queued', id: 'm1', text: 'too late' },
      { type: 'message_queued', id: 'm2', text: 'also too late' },
      { type: 'message_dropped', ids: ['m1', 'm2'] },
      { type: 'task_finished', taskId: 't1', outcome: 'cancelled', message: 'Stopped by the person.' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'go' },
      { kind: 'user', id: 'm1', text: 'too late', notSent: true },
      { kind: 'user', id: 'm2', text: 'also too late', notSent: true },
      { kind: 'outcome', id: 'end-t1', outcome: 'cancelled', message: 'Stopped by the person.' },
    ]);
  });

  it('a message queued while the answer streams waits below it: the answer stays one item, and stops streaming', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'text', delta: 'First half, ' },
      { type: 'message_queued', id: 'm1', text: 'and another thing' },
      { type: 'text', delta: 'second half.' },
      { type: 'message_taken', ids: ['m1'] },
      { type: 'text', delta: 'About your other thing: sure.' },
      { type: 'task_finished', taskId: 't1', outcome: 'done' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'go' },
      { kind: 'assistant', id: 'gen-1', text: 'First half, second half.' },
      { kind: 'user', id: 'm1', text: 'and another thing' },
      { kind: 'assistant', id: 'gen-2', text: 'About your other thing: sure.' },
      { kind: 'outcome', id: 'end-t1', outcome: 'done' },
    ]);
  });

  it('tool calls and notices that come while a message is queued go above it', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'message_queued', id: 'm1', text: 'note' },
      { type: 'tool_call', id: 'a', name: 'bash', input: {} },
      { type: 'notice', kind: 'reminder', message: '<reminder>update the plan</reminder>' },
    ]);
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool', 'notice', 'user']);
    expect(items.at(-1)).toMatchObject({ id: 'm1', queued: true });
  });

  it('an answer of only whitespace leaves no empty bubble', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'text', delta: '\n\n' },
      { type: 'tool_call', id: 'a', name: 'bash', input: {} },
    ]);
    expect(items.map((i) => i.kind)).toEqual(['user', 'tool']);
  });

  it('notices and outcomes end the stream; events that do not show in the chat change nothing', () => {
    const items = fold([
      { type: 'task_started', taskId: 't1', text: 'go' },
      { type: 'state', state: 'thinking' },
      { type: 'text', delta: 'Done, I think.' },
      {
        type: 'usage',
        round: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheCreationTokens: 0 },
        session: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheCreationTokens: 0 },
      },
      { type: 'notice', kind: 'gate', message: 'Items are still open.' },
      { type: 'text', delta: 'Now really done.' },
      { type: 'task_finished', taskId: 't1', outcome: 'stopped_unfinished', message: 'Stopped with an unfinished plan.' },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'go' },
      { kind: 'assistant', id: 'gen-1', text: 'Done, I think.' },
      { kind: 'notice', id: 'gen-2', notice: 'gate', text: 'Items are still open.' },
      { kind: 'assistant', id: 'gen-3', text: 'Now really done.' },
      { kind: 'outcome', id: 'end-t1', outcome: 'stopped_unfinished', message: 'Stopped with an unfinished plan.' },
    ]);
  });
});

describe('timelineFromRecords (the chat rebuilt from a transcript)', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const message = (role: 'user' | 'assistant', content: unknown[]) => ({ type: 'message', message: { role, content }, at });

  it('a message still waiting while the task runs shows as queued, below what the agent did meanwhile', () => {
    const items = timelineFromRecords([
      { type: 'session', id: 's', at },
      { type: 'task', event: 'start', taskId: 't1', text: 'go', at },
      message('user', [{ type: 'text', text: 'go' }]),
      { type: 'task', event: 'queued', id: 'm1', text: 'wait for me', at },
      message('assistant', [
        { type: 'text', text: 'Working.' },
        { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
      ]),
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'go' },
      { kind: 'assistant', id: expect.any(String), text: 'Working.' },
      { kind: 'tool', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
      { kind: 'user', id: 'm1', text: 'wait for me', queued: true },
    ]);
  });

  it('a task that never recorded its end (Keel closed mid-task) leaves its waiting message not sent', () => {
    const items = timelineFromRecords([
      { type: 'task', event: 'start', taskId: 't1', text: 'go', at },
      { type: 'task', event: 'queued', id: 'm1', text: 'lost', at },
      { type: 'task', event: 'start', taskId: 't2', text: 'again', at },
      { type: 'task', event: 'end', taskId: 't2', outcome: 'done', at },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'task-t1', text: 'go' },
      { kind: 'user', id: 'm1', text: 'lost', notSent: true },
      { kind: 'user', id: 'task-t2', text: 'again' },
      { kind: 'outcome', id: 'end-t2', outcome: 'done' },
    ]);
  });

  it('a tool result is attached to its call, as text, with its error flag; records of other kinds are skipped', () => {
    const items = timelineFromRecords([
      message('assistant', [{ type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'x' } }]),
      { type: 'usage', round: {}, at },
      { type: 'plan', version: 1, items: [], at },
      message('user', [
        {
          type: 'tool_result',
          tool_use_id: 'a',
          content: [
            { type: 'text', text: 'line 1' },
            { type: 'text', text: 'line 2' },
          ],
          is_error: true,
        },
      ]),
    ]);
    expect(items).toEqual([{ kind: 'tool', id: 'a', name: 'read_file', input: { path: 'x' }, result: { content: 'line 1\nline 2', isError: true } }]);
  });
});

/** What may differ between the live chat and the rebuilt one: generated ids, streaming flags, live terminal output. */
function comparable(items: ChatItem[]): unknown[] {
  return items.map((item) => {
    if (item.kind === 'assistant') return { kind: 'assistant', text: item.text };
    if (item.kind === 'notice') return { kind: 'notice', notice: item.notice, text: item.text };
    if (item.kind === 'thinking') return { kind: 'thinking', text: item.text, redacted: item.redacted === true };
    if (item.kind === 'tool') {
      const { output: _live, ...rest } = item;
      return rest;
    }
    return item;
  });
}

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the transcript's timeline equals the live chat", () => {
  it('for a task with text, file and command tools, a plan, a reminder, the completion gate and a queued message', async () => {
    const job = gatedTool('long_job');
    const plan = (a: string, b: string) => ({
      items: [
        { content: 'Write the file', status: a },
        { content: 'Show it', status: b },
      ],
    });
    harness = await startAgentHarness(
      [
        reply(text('I will plan first.'), toolUse('todo', plan('in_progress', 'pending'))),
        reply(text('Writing it.'), toolUse('write_file', { path: 'hello.txt', content: 'hello\n' })),
        reply(toolUse('bash', { command: 'cat hello.txt; cat missing.txt' })),
        reply(toolUse('long_job', {})),
        // The reminder (3 rounds without a plan update) went with the last results; the model ends early.
        reply(text('That should be it.')),
        reply(text('Right, closing the plan.'), toolUse('todo', plan('completed', 'completed'))),
        reply(text('All done.')),
      ],
      { tools: [...realTools(), job], settings: { reminderRounds: 3 } },
    );
    const live: AgentEvent[] = [];
    const task = await startTask(harness, 'write hello.txt and show it');
    await job.started;
    await send(harness, 'and mention the line count');
    job.release();
    const finished = await task.finished;
    expect(finished.outcome).toBe('done');
    live.push(...harness.events);
    const kinds = new Set(live.map((e) => e.type));
    for (const kind of ['text', 'tool_output', 'message_queued', 'message_taken', 'notice']) expect(kinds).toContain(kind);
    expect(live.filter((e) => e.type === 'notice').map((e) => (e as Extract<AgentEvent, { type: 'notice' }>).kind)).toEqual(['reminder', 'gate']);

    const fromEvents = fold(live);
    const history = value(await harness.core.handlers['chat.history']({}));
    expect(comparable(history)).toEqual(comparable(fromEvents));
    expect(history.map((i) => i.kind)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'tool',
      'notice',
      'user',
      'assistant',
      'notice',
      'assistant',
      'tool',
      'assistant',
      'outcome',
    ]);
    expect(history.find((i) => i.kind === 'tool' && i.name === 'bash')).toMatchObject({ result: { isError: false } });
    expect(fromEvents.some((i) => i.kind === 'assistant' && i.streaming)).toBe(false);
    // The same as rebuilding from the transcript file directly.
    expect(history).toEqual(timelineFromRecords(readTranscript(harness.core.currentSession!.transcriptPath).records));
  });

  it('for thinking: its own row before the answer, a redacted one shown as hidden, the same after a reload', async () => {
    harness = await startAgentHarness(
      [
        reply(thinking('First I list the folder.'), text('Listing.'), toolUse('list_files', { pattern: '*' })),
        reply(redactedThinking('opaque'), text('All listed.')),
      ],
      { tools: realTools(), settings: { thinking: 'on', model: 'claude-sonnet-5-5' }, server: { catalogue: 'missing' } },
    );
    expect((await runTask(harness, 'list')).outcome).toBe('done');
    const fromEvents = fold(harness.events);
    const history = value(await harness.core.handlers['chat.history']({}));
    expect(comparable(history)).toEqual(comparable(fromEvents));
    expect(history.map((i) => i.kind)).toEqual(['user', 'thinking', 'assistant', 'tool', 'thinking', 'assistant', 'outcome']);
    expect(history[1]).toMatchObject({ kind: 'thinking', text: 'First I list the folder.' });
    expect(history[4]).toMatchObject({ kind: 'thinking', redacted: true });
    expect(fromEvents.some((i) => i.kind === 'thinking' && i.streaming)).toBe(false);
  });

  it('for a message queued while the answer streams, a retried stream, and a second task', async () => {
    harness = await startAgentHarness([
      // A stream cut after a few events is retried; its partial text is void.
      cut(5, text('A partial answer that is cut off and never finished at all.')),
      { ...reply(text('Streaming slowly, piece by piece, while the person types something, and then a few more words to keep it going.')), chunkDelayMs: 40 },
      reply(text('About your note: noted.')),
      reply(text('Second task answered.')),
    ]);
    const task = await startTask(harness, 'first task');
    const retriedTextEvents = () => {
      const retry = harness!.events.findIndex((e) => e.type === 'stream_retry');
      return retry === -1 ? 0 : harness!.events.slice(retry).filter((e) => e.type === 'text').length;
    };
    await waitFor(() => retriedTextEvents() >= 2, 'the retried answer to stream');
    await send(harness, 'a note while you type');
    expect((await task.finished).outcome).toBe('done');
    expect((await runTask(harness, 'second task')).outcome).toBe('done');

    const fromEvents = fold(harness.events);
    const history = value(await harness.core.handlers['chat.history']({}));
    expect(comparable(history)).toEqual(comparable(fromEvents));
    expect(history).toEqual([
      expect.objectContaining({ kind: 'user', text: 'first task' }),
      expect.objectContaining({
        kind: 'assistant',
        text: 'Streaming slowly, piece by piece, while the person types something, and then a few more words to keep it going.',
      }),
      expect.objectContaining({ kind: 'user', text: 'a note while you type' }),
      expect.objectContaining({ kind: 'assistant', text: 'About your note: noted.' }),
      expect.objectContaining({ kind: 'outcome', outcome: 'done' }),
      expect.objectContaining({ kind: 'user', text: 'second task' }),
      expect.objectContaining({ kind: 'assistant', text: 'Second task answered.' }),
      expect.objectContaining({ kind: 'outcome', outcome: 'done' }),
    ]);
    expect(fromEvents.some((i) => (i.kind === 'assistant' && i.streaming) || (i.kind === 'user' && i.queued))).toBe(false);
  });
});
