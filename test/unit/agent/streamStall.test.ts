import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient, ModelError, STREAM_RETRIES, streamRound } from '../../../main/agent/modelClient';
import { resolveModelSettings } from '../../../main/settings/modelSettings';
import { hang, reply, startScriptedAnthropic, text, type ScriptedAnthropic, type Step } from '../../support/scriptedAnthropic';

let server: ScriptedAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-test-stream-stall';

/** One streamed round with a short idle limit; its text, or the error it ended with, and the retries. */
async function round(script: Step[], idleMs: number, options: { textChunkChars?: number } = {}) {
  server = await startScriptedAnthropic({ script, apiKey: KEY, ...options });
  const settings = resolveModelSettings({ apiKey: KEY, baseURL: server.baseURL }, {});
  let streamed = '';
  const retries: string[] = [];
  try {
    const message = await streamRound(
      await createModelClient(settings),
      { model: settings.model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] },
      { onText: (delta) => (streamed += delta), onRetry: (_attempt, reason) => retries.push(reason) },
      new AbortController().signal,
      settings,
      idleMs,
    );
    return { message, streamed, retries };
  } catch (error) {
    if (error instanceof ModelError) return { error, streamed, retries };
    throw error;
  }
}

describe('a stream that goes silent is treated as cut; a slow one is not', () => {
  it('silence after a few events is tried again, then ends as stalled', async () => {
    const silent = () => ({ ...hang(3), content: [text('The start of an answer that never ends.')] });
    const result = await round(Array.from({ length: STREAM_RETRIES + 1 }, silent), 300);
    expect(result.error?.code).toBe('connection');
    expect(result.error?.message).toMatch(/stalled/);
    expect(result.retries).toHaveLength(STREAM_RETRIES);
    expect(server?.remaining).toBe(0);
  });

  it('events that keep coming, each within the limit, finish the answer however long it takes in all', async () => {
    const answer = 'A slow but steady answer, one small piece after another, until it is whole.';
    const result = await round([{ ...reply(text(answer)), chunkDelayMs: 100 }], 1_000, { textChunkChars: 4 });
    expect(result.error).toBeUndefined();
    expect(result.streamed).toBe(answer);
    expect(result.retries).toEqual([]);
  });
});
