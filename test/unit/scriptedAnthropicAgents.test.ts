import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';

import { firstUserText, reply, startScriptedAnthropic, textOf, toolResults, toolUse } from '../support/scriptedAnthropic';
import type { ScriptedAnthropic, ScriptedAnthropicOptions } from '../support/scriptedAnthropic';

const MODEL = 'claude-sonnet-5-5';
let servers: ScriptedAnthropic[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(options: ScriptedAnthropicOptions): Promise<{ server: ScriptedAnthropic; client: Anthropic }> {
  const server = await startScriptedAnthropic(options);
  servers.push(server);
  return { server, client: new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }) };
}

const ask = (client: Anthropic, messages: Anthropic.MessageParam[]) => client.messages.create({ model: MODEL, max_tokens: 256, messages });
const answer = (m: Anthropic.Message): string => m.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');

describe('scripted Anthropic server: several agents at once', () => {
  it('routes each request by its first user message to that agent’s own script', async () => {
    const { server, client } = await start({
      agents: [
        { name: 'main', firstMessage: 'Fix the build', script: [reply(toolUse('delegate', { item: 'a' }, 'toolu_main1')), reply('main done')] },
        { name: 'A', firstMessage: /^You are helper A/, script: [reply('A one'), reply('A two')] },
        { name: 'B', firstMessage: (t) => t.startsWith('You are helper B'), script: [reply('B one')] },
      ],
    });
    const main1 = await ask(client, [{ role: 'user', content: 'Fix the build' }]);
    expect(main1.content[0]).toMatchObject({ type: 'tool_use', name: 'delegate' });
    expect(answer(await ask(client, [{ role: 'user', content: [{ type: 'text', text: 'You are helper B. Step b.' }] }]))).toBe('B one');
    expect(answer(await ask(client, [{ role: 'user', content: 'You are helper A. Step a.' }]))).toBe('A one');
    const a2 = await ask(client, [
      { role: 'user', content: 'You are helper A. Step a.' },
      { role: 'assistant', content: 'A one' },
      { role: 'user', content: 'go on' },
    ]);
    expect(answer(a2)).toBe('A two');
    const main2 = await ask(client, [
      { role: 'user', content: 'Fix the build' },
      { role: 'assistant', content: main1.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_main1', content: 'A says hi' }] },
    ]);
    expect(answer(main2)).toBe('main done');

    expect(server.agent('A').requests.map((r) => r.step)).toEqual([0, 1]);
    expect(server.agent('B').requests.map((r) => r.index)).toEqual([2]);
    expect(server.agent('main').requests.map((r) => r.agent)).toEqual(['main', 'main']);
    expect(toolResults(server.agent('main').requests[1]!)[0]?.tool_use_id).toBe('toolu_main1');
    expect(textOf(server.agent('A').requests[1]!.body.messages.at(-1))).toBe('go on');
    expect(server.requests.map((r) => r.agent)).toEqual(['main', 'B', 'A', 'A', 'main']);
    expect(server.remaining).toBe(0);
    expect(server.errors).toEqual([]);
  });

  it('serves agents concurrently: a held-back agent does not block another (streams interleave)', async () => {
    const { server, client } = await start({
      agents: [
        { name: 'slow', firstMessage: 'slow helper', delayMs: 400, script: [reply('slow answer')] },
        { name: 'fast', firstMessage: 'fast helper', script: [reply('fast answer')] },
      ],
    });
    const finished: string[] = [];
    const slow = client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'slow helper' }] })
      .finalMessage()
      .then((m) => finished.push(answer(m)));
    // The slow request arrives first, so only concurrency lets the fast one finish before it.
    while (server.agent('slow').requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const fast = ask(client, [{ role: 'user', content: 'fast helper' }]).then((m) => finished.push(answer(m)));
    await Promise.all([slow, fast]);
    expect(finished).toEqual(['fast answer', 'slow answer']);
    expect(server.requests.map((r) => r.agent)).toEqual(['slow', 'fast']);
    expect(server.errors).toEqual([]);
  });

  it('answers requests no agent claims from the top-level script', async () => {
    const { server, client } = await start({ script: [reply('from the main script')], agents: [{ name: 'H', firstMessage: 'helper', script: [reply('h')] }] });
    expect(answer(await ask(client, [{ role: 'user', content: 'plain task' }]))).toBe('from the main script');
    expect(server.requests[0]?.agent).toBeUndefined();
    expect(server.remaining).toBe(1);
  });

  it('fails a request two agents claim, and one whose agent ran out, naming them', async () => {
    const { server, client } = await start({
      agents: [
        { name: 'X', firstMessage: 'shared words', script: [reply('x')] },
        { name: 'Y', firstMessage: 'words', script: [reply('y')] },
        { name: 'Z', firstMessage: 'only z', script: [] },
      ],
    });
    await expect(ask(client, [{ role: 'user', content: 'shared words' }])).rejects.toMatchObject({ status: 500 });
    await expect(ask(client, [{ role: 'user', content: 'only z' }])).rejects.toMatchObject({ status: 500 });
    await expect(ask(client, [{ role: 'user', content: 'nobody' }])).rejects.toMatchObject({ status: 500 });
    expect(server.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('matches agents "X" and "Y"'),
      expect.stringContaining(`agent "Z"'s script had 0 steps`),
      expect.stringContaining('the script for requests no agent claims'),
    ]);
    expect(server.remaining).toBe(2);
  });

  it('keeps validating like the real API before routing: a bad request consumes no agent step', async () => {
    const { server, client } = await start({ agents: [{ name: 'H', firstMessage: 'helper', script: [reply('ok')] }] });
    await expect(
      ask(client, [
        { role: 'user', content: 'helper' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'read', input: {} }] },
        { role: 'user', content: 'no tool result' },
      ]),
    ).rejects.toMatchObject({ status: 400 });
    expect(server.agent('H').remaining).toBe(1);
    expect(server.agent('H').requests).toEqual([]);
    expect(firstUserText(server.requests[0]!)).toBe('helper');
  });

  it('push() appends to one agent and agent() refuses an unknown name', async () => {
    const { server, client } = await start({ agents: [{ name: 'H', firstMessage: 'helper', script: [] }] });
    server.agent('H').push(reply('pushed'));
    expect(answer(await ask(client, [{ role: 'user', content: 'helper' }]))).toBe('pushed');
    expect(() => server.agent('nobody')).toThrow(/no agent named "nobody"/);
    await expect(
      startScriptedAnthropic({
        agents: [
          { name: 'D', firstMessage: 'a', script: [] },
          { name: 'D', firstMessage: 'b', script: [] },
        ],
      }),
    ).rejects.toThrow(/two agents are named "D"/);
  });
});
