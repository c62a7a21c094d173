import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatItem } from '../../../common/chat';
import { ELECTRON_CHANNEL_PREFIX } from '../../../common/contract';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { createIpcApi } from '../../../renderer/api/ipcTransport';
import { ChatStore, type ChatSnapshot } from '../../../renderer/chat/chatStore';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { IpcStandIn } from '../../support/electronIpcStandIn';
import { reply, text, thinking, toolUse } from '../../support/scriptedAnthropic';
import { until as untilHolds } from '../../support/until';

/*
 * A window's chat joins the history it loads to the live events: the events that come while the
 * history loads, and those that came before the window listened, show exactly once. Through the
 * real core and the real IPC bridge; only the history's answer is held back, as a slow disk or a
 * busy main process holds it.
 */

const step: AgentTool = {
  name: 'step',
  kind: 'read',
  description: 'A step.',
  inputSchema: z.object({}),
  async run(_input, context) {
    context.onOutput?.('stepping\n');
    return { content: 'stepped', isError: false };
  },
};

let harness: AgentHarness | undefined;
let unbind: () => void = () => undefined;
let stop: () => void = () => undefined;
afterEach(async () => {
  stop();
  unbind();
  await harness?.close();
  harness = undefined;
});

/** Polls every 10 ms for at most 5 s: the store answers within ticks. */
const until = <T>(read: () => T, ok: (value: T) => boolean, what: string) => untilHolds(read, ok, what, 5_000, 10);

/** A window's chat store on the harness's core; its history request waits for `hold` (when given). */
function openWindow(h: AgentHarness, hold?: Promise<unknown>): ChatStore {
  const ipc = new IpcStandIn();
  unbind = ipc.bind(h.core);
  if (hold) {
    const invoke = ipc.invoke.bind(ipc);
    ipc.invoke = async (channel, payload) => {
      if (channel === `${ELECTRON_CHANNEL_PREFIX}chat.history` || channel === `${ELECTRON_CHANNEL_PREFIX}chat.load`) await hold;
      return invoke(channel, payload);
    };
  }
  const store = new ChatStore(createIpcApi(ipc.bridge()), 0);
  stop = store.start();
  return store;
}

/** What the person reads, in order (ids left out: the history and the live chat name rows differently). */
function shown(snapshot: ChatSnapshot): unknown[] {
  return snapshot.items.map((item: ChatItem) => {
    if (item.kind === 'assistant' || item.kind === 'thinking' || item.kind === 'user') return `${item.kind}: ${item.text}`;
    if (item.kind === 'tool') return `tool ${item.id}: ${item.result?.content ?? 'running'}`;
    if (item.kind === 'outcome') return `outcome: ${item.outcome}`;
    return item.kind;
  });
}

const answered = ['user: go', 'thinking: I will step.', 'assistant: Stepping.', 'tool toolu_1: stepped', 'assistant: First answer.', 'outcome: done'];

describe('the chat of a window that opens while the agent works', () => {
  it('shows the answer once when the history that loads already holds it', async () => {
    harness = await startAgentHarness([reply(thinking('I will step.'), text('Stepping.'), toolUse('step', {}, 'toolu_1')), reply(text('First answer.'))], {
      tools: [step],
    });
    const events = harness.events;
    const finished = until(() => events.some((event) => event.type === 'task_finished'), Boolean, 'the task to end');
    const store = openWindow(harness, finished);
    expect((await harness.core.handlers['task.send']({ text: 'go' })).ok).toBe(true);

    const loaded = await until(store.getSnapshot, (snapshot) => snapshot.loaded, 'the chat to load');
    expect(shown(loaded)).toEqual(answered);
    expect(loaded.running).toBe(false);
  }, 30_000);

  it('shows all of an answer that was streaming before the window listened', async () => {
    const long = 'The first part of the answer, and then all the rest of it, to the very end.';
    harness = await startAgentHarness([{ ...reply(text(long)), chunkDelayMs: 40 }]);
    const events = harness.events;
    expect((await harness.core.handlers['task.send']({ text: 'go' })).ok).toBe(true);
    await until(() => events.some((event) => event.type === 'text'), Boolean, 'the answer to start');
    expect(events.some((event) => event.type === 'usage')).toBe(false);

    const store = openWindow(harness);
    const streaming = await until(store.getSnapshot, (snapshot) => snapshot.loaded, 'the chat to load');
    expect(streaming.running).toBe(true);
    const ended = await until(store.getSnapshot, (snapshot) => !snapshot.running && snapshot.loaded, 'the task to end');
    expect(shown(ended)).toEqual(['user: go', `assistant: ${long}`, 'outcome: done']);
  }, 30_000);

  it('joins a history read mid-answer to the rest of the stream, without a gap or a repeat', async () => {
    const long = 'One, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve.';
    harness = await startAgentHarness([{ ...reply(text(long)), chunkDelayMs: 40 }]);
    const events = harness.events;
    const midAnswer = until(() => events.filter((event) => event.type === 'text').length >= 2, Boolean, 'the answer to be half streamed');
    const store = openWindow(harness, midAnswer);
    expect((await harness.core.handlers['task.send']({ text: 'go' })).ok).toBe(true);

    await until(store.getSnapshot, (snapshot) => snapshot.loaded, 'the chat to load');
    const ended = await until(store.getSnapshot, (snapshot) => !snapshot.running && snapshot.loaded, 'the task to end');
    expect(shown(ended)).toEqual(['user: go', `assistant: ${long}`, 'outcome: done']);
  }, 30_000);
});
