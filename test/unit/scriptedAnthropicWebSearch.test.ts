import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, MessageParam, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';

import { cited, reply, startScriptedAnthropic, webSearch } from '../support/scriptedAnthropic';
import type { ScriptedAnthropic, ScriptedAnthropicOptions } from '../support/scriptedAnthropic';

const MODEL = 'claude-sonnet-5-5';
const SEARCH: ToolUnion = { type: 'web_search_20250305', name: 'web_search' };
const DOCS = { url: 'https://docs.example.com/vitest', title: 'Vitest docs' };
const BLOG = { url: 'https://blog.example.org/post', title: 'A post' };

let servers: ScriptedAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(options: ScriptedAnthropicOptions): Promise<{ server: ScriptedAnthropic; client: Anthropic }> {
  const server = await startScriptedAnthropic({ catalogue: [{ id: MODEL, max_tokens: 64_000, serverTools: ['web_search'] }], ...options });
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

const searchedReply = () => reply(...webSearch('vitest projects', [DOCS, BLOG]), cited('Vitest runs projects side by side.', DOCS));

/** Asks, and returns the answer's blocks as the SDK assembled them from the stream. */
async function ask(client: Anthropic, messages: MessageParam[], tools: ToolUnion[] = [SEARCH]): Promise<ContentBlock[]> {
  const stream = client.messages.stream({ model: MODEL, max_tokens: 1000, tools, messages });
  return (await stream.finalMessage()).content;
}

function continued(answer: ContentBlock[] | ContentBlockParam[]): MessageParam[] {
  return [
    { role: 'user', content: 'How do Vitest projects work?' },
    { role: 'assistant', content: answer as ContentBlockParam[] },
    { role: 'user', content: 'Thanks. And the config file?' },
  ];
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('scripted server: web search as the API runs it', () => {
  it('streams the search, its results and a cited answer, and counts the search in usage', async () => {
    const { client } = await start({ script: [searchedReply()] });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 1000, tools: [SEARCH], messages: [{ role: 'user', content: 'Vitest?' }] });
    const citations: unknown[] = [];
    stream.on('citation', (c) => citations.push(c));
    const message = await stream.finalMessage();
    const [use, result, answer] = message.content;
    expect(use).toMatchObject({ type: 'server_tool_use', name: 'web_search', input: { query: 'vitest projects' } });
    expect((use as { id: string }).id).toMatch(/^srvtoolu_01/);
    expect(result).toMatchObject({ type: 'web_search_tool_result', tool_use_id: (use as { id: string }).id });
    const results = (result as { content: { url: string; title: string; encrypted_content: string; page_age: null }[] }).content;
    expect(results.map((r) => [r.url, r.title, r.page_age])).toEqual([
      [DOCS.url, DOCS.title, null],
      [BLOG.url, BLOG.title, null],
    ]);
    expect(results[0]!.encrypted_content.length).toBeGreaterThan(40);
    expect(answer).toMatchObject({ type: 'text', text: 'Vitest runs projects side by side.' });
    expect((answer as { citations: unknown[] }).citations).toEqual([
      expect.objectContaining({ type: 'web_search_result_location', url: DOCS.url, title: DOCS.title, cited_text: 'Vitest runs projects side by side.' }),
    ]);
    expect(citations).toHaveLength(1);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('answers a non-streaming request with the same blocks', async () => {
    const { client } = await start({ script: [searchedReply()] });
    const message = await client.messages.create({ model: MODEL, max_tokens: 1000, tools: [SEARCH], messages: [{ role: 'user', content: 'Vitest?' }] });
    expect(message.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('takes the blocks back exactly as they came, and refuses them edited, missing or reordered', async () => {
    const { client, server } = await start({ script: [searchedReply(), reply('ok')] });
    const answer = await ask(client, [{ role: 'user', content: 'How do Vitest projects work?' }]);

    const edited = copy(answer) as unknown as { content: { encrypted_content: string }[] }[];
    edited[1]!.content[0]!.encrypted_content = `${edited[1]!.content[0]!.encrypted_content}x`;
    expect(await refusal(ask(client, continued(edited as never)))).toMatch(/messages\.1\.content\.1: Invalid `encrypted_content`/);

    const retitled = copy(answer) as unknown as { content: { title: string }[] }[];
    retitled[1]!.content[1]!.title = 'Another title';
    expect(await refusal(ask(client, continued(retitled as never)))).toMatch(/Invalid `encrypted_content`/);

    expect(await refusal(ask(client, continued(copy(answer).slice(1))))).toMatch(/does not follow a `server_tool_use` block/);
    expect(await refusal(ask(client, continued([answer[0]!, answer[2]!])))).toMatch(/without a `web_search_tool_result` block after it/);
    expect(await refusal(ask(client, continued([answer[1]!, answer[0]!, answer[2]!])))).toMatch(/does not follow a `server_tool_use` block/);

    const requoted = copy(answer) as unknown as { citations: { cited_text: string }[] }[];
    requoted[2]!.citations[0]!.cited_text = 'Something it never said.';
    expect(await refusal(ask(client, continued(requoted as never)))).toMatch(/citations\.0: Invalid `encrypted_index`/);

    const asked = copy(answer) as unknown as { input: { query: string } }[];
    asked[0]!.input.query = 'other';
    expect(await refusal(ask(client, continued(asked as never)))).toMatch(/Invalid `server_tool_use` block/);

    expect(server.remaining).toBe(1);
    expect(await ask(client, continued(copy(answer)))).toMatchObject([{ type: 'text', text: 'ok' }]);
    expect(server.errors).toEqual([]);
  });

  it('refuses server tool blocks in a user message', async () => {
    const { client } = await start({ script: [searchedReply()] });
    const answer = await ask(client, [{ role: 'user', content: 'Vitest?' }]);
    const message = await refusal(ask(client, [{ role: 'user', content: [answer[0] as ContentBlockParam, { type: 'text', text: 'hi' }] }]));
    expect(message).toMatch(/`server_tool_use` blocks can only be in `assistant` messages/);
  });

  it('checks the tool: its name, max_uses, and allowed_domains with blocked_domains', async () => {
    const { client } = await start({ script: [] });
    const with_ = (tool: Record<string, unknown>) => ask(client, [{ role: 'user', content: 'hi' }], [{ ...SEARCH, ...tool } as ToolUnion]);
    expect(await refusal(with_({ name: 'search' }))).toMatch(/tools\.0\.web_search_20250305\.name: Input should be 'web_search'/);
    expect(await refusal(with_({ max_uses: 0 }))).toMatch(/max_uses: Input should be greater than 0/);
    expect(await refusal(with_({ allowed_domains: ['a.com'], blocked_domains: ['b.com'] }))).toMatch(/Cannot specify both allowed_domains and blocked_domains/);
  });

  it('refuses the tool for a model whose catalogue entry does not list web search', async () => {
    const { client } = await start({ script: [], catalogue: [{ id: MODEL, serverTools: [] }] });
    expect(await refusal(ask(client, [{ role: 'user', content: 'hi' }]))).toMatch(/'web_search_20250305' is not supported for model/);
  });

  it('keeps to max_uses and the domain lists', async () => {
    const twice = reply(...webSearch('one', [DOCS, BLOG]), ...webSearch('two', [DOCS]), 'done');
    const { client } = await start({ script: [twice, reply(...webSearch('three', [DOCS, BLOG]), 'done')] });
    const first = await ask(client, [{ role: 'user', content: 'hi' }], [{ ...SEARCH, max_uses: 1 }]);
    expect((first[1] as { content: unknown[] }).content).toHaveLength(2);
    expect(first[3]).toMatchObject({ content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } });
    const second = await ask(client, [{ role: 'user', content: 'hi' }], [{ ...SEARCH, blocked_domains: ['example.org'] }]);
    expect((second[1] as { content: { url: string }[] }).content.map((r) => r.url)).toEqual([DOCS.url]);
  });

  it('pauses a long turn, and takes the paused turn back as the last message to continue it', async () => {
    const paused = { ...reply(...webSearch('vitest projects', [DOCS])), stop_reason: 'pause_turn' as const };
    const { client, server } = await start({ script: [paused, reply(cited('Projects run side by side.', DOCS))] });
    const first = await client.messages.create({ model: MODEL, max_tokens: 1000, tools: [SEARCH], messages: [{ role: 'user', content: 'Vitest?' }] });
    expect(first.stop_reason).toBe('pause_turn');
    const rest = await ask(client, [
      { role: 'user', content: 'Vitest?' },
      { role: 'assistant', content: first.content as ContentBlockParam[] },
    ]);
    expect(rest).toMatchObject([{ type: 'text', text: 'Projects run side by side.' }]);
    expect(server.requests[1]!.body.messages.at(-1)!.role).toBe('assistant');
    expect(server.errors).toEqual([]);
  });
});
