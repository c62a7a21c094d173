import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';

import { redactedThinking, reply, startScriptedAnthropic, text, thinking, toolUse } from '../support/scriptedAnthropic';
import type { ScriptedAnthropic, ScriptedAnthropicOptions, ScriptedModel } from '../support/scriptedAnthropic';

const SONNET: ScriptedModel = {
  id: 'claude-sonnet-5-5',
  max_input_tokens: 30_000,
  max_tokens: 128_000,
  thinking: ['adaptive'],
  effort: ['low', 'medium', 'high'],
};
const OLD: ScriptedModel = { id: 'claude-sonnet-4-5', max_input_tokens: 200_000, max_tokens: 32_000, thinking: ['enabled'], lifecycle: 'deprecated' };

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

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  return (error as InstanceType<typeof Anthropic.BadRequestError>).message;
}

describe('scripted server: the model catalogue', () => {
  it('lists models with limits, lifecycle and capabilities in the API shape', async () => {
    const { client, server } = await start({ catalogue: [SONNET, OLD] });
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((m) => m.id)).toEqual(['claude-sonnet-5-5', 'claude-sonnet-4-5']);
    const [sonnet, old] = models;
    expect(sonnet).toMatchObject({ max_input_tokens: 30_000, max_tokens: 128_000, lifecycle: 'active' });
    expect(sonnet!.capabilities?.thinking.types.adaptive.supported).toBe(true);
    expect(sonnet!.capabilities?.thinking.types.enabled.supported).toBe(false);
    expect(sonnet!.capabilities?.effort).toMatchObject({ supported: true, medium: { supported: true }, max: { supported: false } });
    expect(old).toMatchObject({ lifecycle: 'deprecated' });
    expect(old!.capabilities?.effort.supported).toBe(false);
    expect((await client.models.retrieve('claude-sonnet-4-5')).max_tokens).toBe(32_000);
    expect(server.modelRequests).toBe(2);
  });

  it('answers 404 where the endpoint has no catalogue, and a non-list when malformed', async () => {
    const { client } = await start({ catalogue: 'missing' });
    await expect(client.models.list()).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    const malformed = await start({ catalogue: 'malformed' });
    const raw = await fetch(`${malformed.server.baseURL}/v1/models`, { headers: { 'x-api-key': 'k' } });
    expect(((await raw.json()) as { data: unknown }).data).not.toBeInstanceOf(Array);
  });

  it('refuses what the listed model does not allow: too many output tokens, a thinking type, an effort level, a too-long prompt', async () => {
    const { client, server } = await start({ catalogue: [SONNET, OLD], script: [reply('ok'), reply('ok')] });
    const send = (p: Anthropic.MessageCreateParamsNonStreaming) => client.messages.stream(p).finalMessage();
    const base = { model: 'claude-sonnet-5-5', messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(await refusal(send({ ...base, max_tokens: 128_001 }))).toContain('128001 > 128000');
    expect(await refusal(send({ ...base, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }))).toContain(
      "thinking.type: 'enabled' is not supported",
    );
    expect(await refusal(send({ ...base, max_tokens: 2000, output_config: { effort: 'max' } }))).toContain('output_config.effort');
    expect(await refusal(send({ ...base, model: 'claude-sonnet-4-5', max_tokens: 2000, output_config: { effort: 'medium' } }))).toContain(
      'does not support the effort parameter',
    );
    expect(await refusal(send({ ...base, max_tokens: 2000, messages: [{ role: 'user', content: 'x'.repeat(130_000) }] }))).toMatch(
      /prompt is too long: \d+ tokens > 30000 maximum/,
    );
    const fine = await send({ ...base, max_tokens: 128_000, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    expect(fine.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.remaining).toBe(1);
  });

  it('takes the web search server tool only for a model that lists it', async () => {
    const SEARCHING: ScriptedModel = { ...SONNET, id: 'claude-opus-5-5', serverTools: ['web_search'] };
    const { client } = await start({ catalogue: [SONNET, SEARCHING], script: [reply('ok')] });
    const tools: Anthropic.ToolUnion[] = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
    const base = { max_tokens: 2000, tools, messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(await refusal(client.messages.create({ ...base, model: 'claude-sonnet-5-5' }))).toContain("'web_search_20250305' is not supported");
    const fine = await client.messages.create({ ...base, model: 'claude-opus-5-5' });
    expect(fine.content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('refuses any thinking on an endpoint that does not know it', async () => {
    const { client } = await start({ refuseThinking: true, script: [reply('ok')] });
    const message = await refusal(
      client.messages.create({ model: 'm', max_tokens: 2000, thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(message).toContain('thinking');
  });

  it('refuses a beta it does not know, names it, and takes the ones it knows', async () => {
    const { client, server } = await start({ script: [reply('ok')] });
    const body = { model: 'm', max_tokens: 2000, messages: [{ role: 'user' as const, content: 'hi' }] };
    const message = await refusal(client.messages.create(body, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,made-up-2099-01-01' } }));
    expect(message).toContain('Unexpected value(s) `made-up-2099-01-01` for the `anthropic-beta` header');
    await client.messages.create(body, { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
    expect(server.requests.map((r) => Boolean(r.rejected))).toEqual([true, false]);
  });

  it('refuses every beta on an endpoint that takes none', async () => {
    const { client } = await start({ refuseBetas: true, script: [reply('ok')] });
    const message = await refusal(
      client.messages.create(
        { model: 'm', max_tokens: 2000, messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
      ),
    );
    expect(message).toContain('`interleaved-thinking-2025-05-14` for the `anthropic-beta` header');
  });
});

describe('scripted server: thinking as the API holds it', () => {
  const loop = (): ScriptedAnthropicOptions => ({
    catalogue: [SONNET],
    script: [
      reply(thinking('I should list the files.'), text('Listing.'), toolUse('list', {}, 'toolu_1')),
      reply(redactedThinking('opaque-1'), toolUse('list', {}, 'toolu_2')),
      reply('done'),
    ],
  });

  async function firstTurn(client: Anthropic) {
    const first = await client.messages
      .stream({ model: SONNET.id, max_tokens: 4000, thinking: { type: 'adaptive' }, messages: [{ role: 'user', content: 'go' }] })
      .finalMessage();
    return first;
  }

  it('signs thinking when streamed, and takes the blocks back exactly as sent, redacted ones too', async () => {
    const { client, server } = await start(loop());
    const first = await firstTurn(client);
    const signed = first.content[0];
    expect(signed).toEqual({ type: 'thinking', thinking: 'I should list the files.', signature: server.sign('I should list the files.') });
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
    ];
    const second = await client.messages.create({ model: SONNET.id, max_tokens: 4000, thinking: { type: 'adaptive' }, messages: history });
    expect(second.content[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-1' });
    history.push(
      { role: 'assistant', content: second.content as Anthropic.ContentBlockParam[] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'b.txt' }] },
    );
    const third = await client.messages.create({ model: SONNET.id, max_tokens: 4000, thinking: { type: 'adaptive' }, messages: history });
    expect(third.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('refuses a continued turn whose thinking is missing, edited, or whose redacted data changed', async () => {
    const { client, server } = await start(loop());
    const first = await firstTurn(client);
    const [think, said, call] = first.content as Anthropic.ContentBlockParam[];
    const continued = (assistant: Anthropic.ContentBlockParam[]) =>
      client.messages.create({
        model: SONNET.id,
        max_tokens: 4000,
        thinking: { type: 'adaptive' },
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: assistant },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
        ],
      });
    expect(await refusal(continued([said!, call!]))).toContain('Expected `thinking` or `redacted_thinking`, but found `text`');
    expect(await refusal(continued([{ ...(think as Anthropic.ThinkingBlockParam), thinking: 'I should delete the files.' }, said!, call!]))).toContain(
      'Invalid `signature` in `thinking` block',
    );
    expect(await refusal(continued([{ type: 'redacted_thinking', data: 'forged' }, said!, call!]))).toContain('Invalid `data` in `redacted_thinking` block');
    // Without thinking asked for, the turn may come back without it.
    const plain = await client.messages.create({
      model: SONNET.id,
      max_tokens: 4000,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [said!, call!] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt' }] },
      ],
    });
    expect(plain.content[0]?.type).toBe('redacted_thinking');
    expect(server.remaining).toBe(1);
  });

  it('answers pause_turn, and takes the paused turn back as the final assistant message', async () => {
    const { client } = await start({ script: [{ ...reply(thinking('Searching.'), text('Looking it up')), stop_reason: 'pause_turn' }, reply('Found it.')] });
    const paused = await client.messages.create({
      model: 'm',
      max_tokens: 4000,
      thinking: { type: 'adaptive' },
      messages: [{ role: 'user', content: 'find' }],
    });
    expect(paused.stop_reason).toBe('pause_turn');
    const resumed = await client.messages.create({
      model: 'm',
      max_tokens: 4000,
      thinking: { type: 'adaptive' },
      messages: [
        { role: 'user', content: 'find' },
        { role: 'assistant', content: paused.content as Anthropic.ContentBlockParam[] },
      ],
    });
    expect(resumed.content).toEqual([{ type: 'text', text: 'Found it.' }]);
  });
});
