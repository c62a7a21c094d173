import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { createIpcApi } from '../../../renderer/api/ipcTransport';
import { ChatStore } from '../../../renderer/chat/chatStore';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { IpcStandIn } from '../../support/electronIpcStandIn';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { until as untilHolds } from '../../support/until';

/*
 * A window that loads while a round runs (a reload, a second window) builds its chat store from
 * the real core through the real IPC bridge: the call that ended shows its result, the one still
 * running its output so far, and the events that follow finish that card once, with no repeat.
 */

let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));

const step: AgentTool = {
  name: 'step',
  kind: 'read',
  description: 'A step that may wait.',
  inputSchema: z.object({ wait: z.boolean() }),
  async run(input, context) {
    context.onOutput?.('first\n');
    if (!(input as { wait: boolean }).wait) return { content: 'quick done', isError: false };
    await held;
    context.onOutput?.('second\n');
    return { content: 'slow done', isError: false };
  },
};

let harness: AgentHarness | undefined;
afterEach(async () => {
  release();
  await harness?.close();
  harness = undefined;
});

/** Polls every 10 ms for at most 5 s: the store answers within ticks. */
const until = <T>(read: () => T, ok: (value: T) => boolean, what: string) => untilHolds(read, ok, what, 5_000, 10);

describe('the chat store of a window that loads mid-round', () => {
  it('rebuilds the cards the live chat has and finishes them once', async () => {
    harness = await startAgentHarness(
      [reply(text('Two steps.'), toolUse('step', { wait: false }, 'toolu_quick'), toolUse('step', { wait: true }, 'toolu_slow')), reply(text('Done.'))],
      { tools: [step] },
    );
    const events = harness.events;
    expect((await harness.core.handlers['task.send']({ text: 'go' })).ok).toBe(true);
    await until(() => events.some((event) => event.type === 'tool_output' && event.id === 'toolu_slow'), Boolean, 'the slow step to start');

    const ipc = new IpcStandIn();
    const unbind = ipc.bind(harness.core);
    const store = new ChatStore(createIpcApi(ipc.bridge()), 0);
    const stop = store.start();
    try {
      const loaded = await until(store.getSnapshot, (snapshot) => snapshot.loaded, 'the chat to load');
      const tools = loaded.items.filter((item) => item.kind === 'tool');
      expect(loaded.running).toBe(true);
      expect(tools).toEqual([
        { kind: 'tool', id: 'toolu_quick', name: 'step', input: { wait: false }, result: { content: 'quick done', isError: false } },
        { kind: 'tool', id: 'toolu_slow', name: 'step', input: { wait: true }, output: 'first\n' },
      ]);

      release();
      const ended = await until(store.getSnapshot, (snapshot) => !snapshot.running, 'the task to end');
      const after = ended.items.filter((item) => item.kind === 'tool');
      expect(after.map((item) => item.id)).toEqual(['toolu_quick', 'toolu_slow']);
      expect(after[1]).toMatchObject({ output: 'first\nsecond\n', result: { content: 'slow done', isError: false } });
    } finally {
      stop();
      unbind();
    }
  }, 30_000);
});
