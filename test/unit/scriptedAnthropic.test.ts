import Anthropic, { OverloadedError } from '@anthropic-ai/sdk';
import type { APIError, RateLimitError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';

import {
  cut,
  errorStatus,
  hang,
  lastMessage,
  overloaded,
  rateLimited,
  reply,
  reset,
  startScriptedAnthropic,
  streamError,
  systemText,
  text,
  thinking,
  toolResultText,
  toolResults,
  toolUse,
  validateMessagesRequest,
} from '../support/scriptedAnthropic';
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

const user = (content: Anthropic.MessageParam['content']): Anthropic.MessageParam => ({ role: 'user', content });
const assistant = (content: Anthropic.MessageParam['content']): Anthropic.MessageParam => ({ role: 'assistant', content });
const params = (messages: Anthropic.MessageParam[], extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) => ({
  model: MODEL,
  max_tokens: 1024,
  messages,
  ...extra,
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Raw SSE frames as sent on the wire (bypasses the SDK to check the exact framing). */
async function rawSse(baseURL: string, body: unknown): Promise<{ headers: Headers; frames: { event: string; data: unknown }[] }> {
  const res = await fetch(`${baseURL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const textBody = await res.text();
  const frames = textBody
    .split('\n\n')
    .filter((f) => f !== '')
    .map((f) => {
      const m = /^event: (.+)\ndata: (.+)$/.exec(f);
      if (!m) throw new Error(`bad frame: ${JSON.stringify(f)}`);
      return { event: m[1] as string, data: JSON.parse(m[2] as string) as unknown };
    });
  return { headers: res.headers, frames };
}

describe('scripted Anthropic server: replies through the real SDK', () => {
  it('answers a non-streaming request with a JSON message', async () => {
    const { server, client } = await start({ script: [reply('Hello from the script.')] });
    const msg = await client.messages.create(params([user('hi')]));

    expect(msg.type).toBe('message');
    expect(msg.role).toBe('assistant');
    expect(msg.model).toBe(MODEL);
    expect(msg.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
    expect(msg.content).toEqual([{ type: 'text', text: 'Hello from the script.' }]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.stop_sequence).toBeNull();
    expect(msg.usage).toMatchObject({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(msg._request_id).toMatch(/^req_01/);

    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req?.stream).toBe(false);
    expect(req?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(req?.headers['anthropic-version']).toBeTruthy();
    expect(req?.step).toBe(0);
    expect(server.remaining).toBe(0);
    expect(server.errors).toEqual([]);
  });

  it('streams a reply whose tool_use input the SDK reassembles from partial JSON', async () => {
    const input = {
      items: [
        { text: 'write the parser', done: false },
        { text: 'test it — ünïcødé 🚀', done: true },
      ],
    };
    const { server, client } = await start({ script: [reply(text('Planning first.'), toolUse('todo', input))] });

    const stream = client.messages.stream(params([user('plan it')]));
    const types: string[] = [];
    const jsonPieces: string[] = [];
    stream.on('streamEvent', (e) => {
      types.push(e.type);
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') jsonPieces.push(e.delta.partial_json);
    });
    const msg = await stream.finalMessage();

    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content[0]).toEqual({ type: 'text', text: 'Planning first.' });
    const call = msg.content[1];
    expect(call?.type).toBe('tool_use');
    if (call?.type !== 'tool_use') throw new Error('unreachable');
    expect(call.name).toBe('todo');
    expect(call.id).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
    expect(call.input).toEqual(input);
    expect(jsonPieces.length).toBeGreaterThanOrEqual(3);
    expect(jsonPieces.join('')).toBe(JSON.stringify(input));
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(msg.usage.output_tokens).toBeGreaterThan(1);
    expect(stream.request_id).toMatch(/^req_01/);
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('sends the exact SSE event sequence and framing of the real API', async () => {
    const { server } = await start({ script: [reply('Hi there, this text spans chunks.', toolUse('read', { path: 'a.txt' }, 'toolu_01fixed'))] });
    const { headers, frames } = await rawSse(server.baseURL, { ...params([user('go')]), stream: true });

    expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(headers.get('request-id')).toMatch(/^req_01/);
    const events = frames.map((f) => f.event);
    expect(events.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    for (const f of frames) expect((f.data as { type: string }).type).toBe(f.event);

    const start0 = frames[0]?.data as { message: Anthropic.Message };
    expect(start0.message.content).toEqual([]);
    expect(start0.message.stop_reason).toBeNull();
    expect(start0.message.usage.input_tokens).toBeGreaterThan(0);

    const textDeltas = frames.filter((f) => f.event === 'content_block_delta' && (f.data as { index: number }).index === 0);
    expect(textDeltas.length).toBeGreaterThan(1);
    const toolStart = frames.find((f) => f.event === 'content_block_start' && (f.data as { index: number }).index === 1);
    expect(toolStart?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01fixed', name: 'read', input: {} },
    });
    const delta = frames.find((f) => f.event === 'message_delta')?.data as Anthropic.RawMessageDeltaEvent;
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams thinking blocks and honours stop_reason, usage and partial_json overrides', async () => {
    const { client } = await start({
      script: [
        {
          content: [thinking('Let me think.', 'sig-1'), { type: 'tool_use', name: 'write', input: {}, partial_json: '{"path": "a.txt", "cont' }],
          stop_reason: 'max_tokens',
          usage: { input_tokens: 5000, output_tokens: 1024, cache_read_input_tokens: 4000, cache_creation_input_tokens: 100 },
        },
      ],
    });
    const msg = await client.messages.stream(params([user('write')])).finalMessage();

    expect(msg.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' });
    expect(msg.stop_reason).toBe('max_tokens');
    // The SDK parses a truncated tool input leniently: never execute a tool_use from a max_tokens reply.
    const call = msg.content[1];
    if (call?.type !== 'tool_use') throw new Error('expected tool_use');
    expect(call.input).toMatchObject({ path: 'a.txt' });
    expect(msg.usage).toMatchObject({ input_tokens: 5000, output_tokens: 1024, cache_read_input_tokens: 4000, cache_creation_input_tokens: 100 });
  });

  it('waits delayMs before answering and chunkDelayMs between events', async () => {
    const { client } = await start({
      script: [
        { ...reply('slow'), delayMs: 150 },
        { ...reply('drip drip drip drip'), chunkDelayMs: 20 },
      ],
    });
    let t0 = Date.now();
    await client.messages.create(params([user('a')]));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    t0 = Date.now();
    await client.messages.stream(params([user('b')])).finalMessage();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100); // ≥ 6 gaps of 20 ms
  });

  it('asks a chunkDelayMs function before each event, so a test can let the rest of a stream go quickly', async () => {
    let asked = 0;
    const { client } = await start({ script: [{ ...reply('drip drip drip drip'), chunkDelayMs: () => (asked++, 0) }] });
    const stream = client.messages.stream(params([user('a')]));
    let events = 0;
    stream.on('streamEvent', () => events++);
    expect((await stream.finalMessage()).content).toEqual([{ type: 'text', text: 'drip drip drip drip' }]);
    expect(events).toBeGreaterThan(3);
    expect(asked).toBeGreaterThanOrEqual(events);
  });
});

describe('scripted Anthropic server: faults', () => {
  it('answers a 529 and the SDK retries it (maxRetries: 2)', async () => {
    const { server } = await start({ script: [overloaded(), reply('after the storm')] });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    const msg = await client.messages.create(params([user('hi')]));

    expect(msg.content).toEqual([{ type: 'text', text: 'after the storm' }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
    expect(server.remaining).toBe(0);
  });

  it('surfaces a 529 as OverloadedError (an InternalServerError) with the overloaded_error body when retries are off', async () => {
    const { client } = await start({ script: [overloaded()] });
    const err = await client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OverloadedError);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect(err).toMatchObject({ status: 529, type: 'overloaded_error', error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
  });

  it('answers 429 with retry-after and honours retry-after-ms for a fast retry', async () => {
    // retry-after says 50 s, retry-after-ms 1 ms: only a client that honours the latter finishes
    // within the test's timeout (no duration is asserted).
    const { server, client } = await start({ script: [rateLimited(), rateLimited(50, { 'retry-after-ms': '1' }), reply('ok')] });
    const err = await client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as RateLimitError).headers.get('retry-after')).toBe('0');

    const retrying = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 1 });
    await retrying.messages.create(params([user('hi')]));
    expect(server.requests).toHaveLength(3);
  });

  it('maps scripted statuses to the SDK error classes', async () => {
    const { client } = await start({
      script: [errorStatus(401), errorStatus(403), errorStatus(404), errorStatus(400, { message: 'custom words' }), errorStatus(500)],
    });
    const call = () => client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(await call()).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(await call()).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(await call()).toBeInstanceOf(Anthropic.NotFoundError);
    const bad = await call();
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect((bad as APIError).message).toContain('custom words');
    expect(await call()).toMatchObject({ status: 500, type: 'api_error' });
  });

  it('checks the API key when created with apiKey (x-api-key or Bearer), without consuming a step', async () => {
    const { server, client } = await start({ apiKey: 'k', script: [reply('welcome')] });
    const err = await client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(err).toMatchObject({ status: 401, type: 'authentication_error' });
    expect(server.remaining).toBe(1);
    expect(server.requests[0]?.rejected).toBe('invalid x-api-key');

    // SDK 1.14 sends the key as `Authorization: Bearer <key>`; a raw x-api-key is accepted too.
    const good = new Anthropic({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    expect((await good.messages.create(params([user('hi')]))).content).toEqual([{ type: 'text', text: 'welcome' }]);
    expect(server.requests[1]?.headers.authorization).toBe('Bearer k');
    const raw = await fetch(`${server.baseURL}/v1/models`, { headers: { 'x-api-key': 'k' } });
    expect(raw.status).toBe(200);
  });

  it('cuts a stream mid-way: the SDK stream rejects with "terminated" (an AnthropicError, not an APIError)', async () => {
    const { server, client } = await start({ script: [cut(4, 'This answer never finishes.')] });
    const stream = client.messages.stream(params([user('hi')]));
    const seen: string[] = [];
    stream.on('streamEvent', (e) => seen.push(e.type));
    const err = await stream.finalMessage().catch((e: unknown) => e);

    expect(err).toBeInstanceOf(Anthropic.AnthropicError);
    expect(err).not.toBeInstanceOf(Anthropic.APIError);
    expect((err as Error).message).toBe('terminated');
    // 4 events sent: message_start, content_block_start, ping (not surfaced by the SDK), one delta.
    expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(server.remaining).toBe(0);
  });

  it('also rejects when iterating the raw stream of messages.create({ stream: true })', async () => {
    const { client } = await start({ script: [cut(2)] });
    const stream = await client.messages.create({ ...params([user('hi')]), stream: true });
    const consume = async (): Promise<void> => {
      for await (const _event of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow('terminated');
  });

  it('a cleanly ended but incomplete stream makes finalMessage() reject too', async () => {
    const { client } = await start({ script: [{ ...cut(5, 'half'), clean: true }] });
    await expect(client.messages.stream(params([user('hi')])).finalMessage()).rejects.toThrow('stream ended without producing a Message with role=assistant');
  });

  it('cuts a non-streaming JSON body: the SDK lets a bare TypeError through', async () => {
    const { client } = await start({ script: [cut(0, 'whatever')] });
    const err = await client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err).not.toBeInstanceOf(Anthropic.AnthropicError);
    expect((err as Error).message).toBe('terminated');
  });

  it('sends an in-stream error event: the SDK throws an APIError without status', async () => {
    const { client } = await start({ script: [streamError(3, 'overloaded_error', 'partial')] });
    const err = await client.messages
      .stream(params([user('hi')]))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err).toMatchObject({ status: undefined, type: 'overloaded_error' });
  });

  it('hangs until the client aborts, and close() ends hanging requests', async () => {
    const { server, client } = await start({ script: [reply('warm-up'), hang(), hang(2), hang()] });
    await client.messages.create(params([user('warm up')])); // the SDK's first call in a process is slow (~300 ms)

    const controller = new AbortController();
    const pending = client.messages.create(params([user('hi')]), { signal: controller.signal }).catch((e: unknown) => e);
    await until(() => server.requests.length === 2);
    controller.abort();
    expect(await pending).toBeInstanceOf(Anthropic.APIUserAbortError);

    // A stream that stalls after its headers is NOT covered by the SDK's `timeout` option.
    const timed = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 200 });
    const stream = timed.messages.stream(params([user('hi')]));
    const outcome = await Promise.race([
      stream.finalMessage().then(
        () => 'resolved',
        (e: unknown) => `rejected: ${String(e)}`,
      ),
      new Promise((r) => setTimeout(() => r('still pending'), 600)),
    ]);
    expect(outcome).toBe('still pending');
    expect(stream.currentMessage?.content).toEqual([{ type: 'text', text: '' }]); // 2 events: message_start, content_block_start
    stream.abort();
    await expect(stream.done()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);

    const left = client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    await until(() => server.requests.length === 4);
    await server.close();
    expect(await left).toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it('resets the connection before any response: APIConnectionError, retried by the SDK', async () => {
    const { server, client } = await start({ script: [reset(), reset(), reply('reconnected')] });
    await expect(client.messages.create(params([user('hi')]))).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
    const retrying = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 1 });
    expect((await retrying.messages.create(params([user('hi')]))).content).toEqual([{ type: 'text', text: 'reconnected' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('answers 500 "no step left" when the script runs out, without SDK retries', async () => {
    const { server } = await start({ script: [reply('only one')] });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    await client.messages.create(params([user('one')]));
    const err = await client.messages.create(params([user('two')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as Error).message).toContain('scripted server: no step left for request 2');
    expect(server.requests).toHaveLength(2); // x-should-retry: false stopped the retries
    expect(server.errors.map((e) => e.message)).toEqual([expect.stringContaining('no step left for request 2')]);
  });
});

describe('scripted Anthropic server: validation like the real API', () => {
  const toolTurn = (id = 'toolu_01abc'): Anthropic.MessageParam[] => [
    user('list my todos'),
    assistant([text('Looking.'), { type: 'tool_use', id, name: 'todo', input: {} }]),
  ];

  it('rejects a tool_use not answered by a leading tool_result, consuming no step', async () => {
    const { server, client } = await start({ script: [reply('fine')] });
    const messages = [...toolTurn(), user([text('by the way'), { type: 'tool_result', tool_use_id: 'toolu_01abc', content: 'none' }])];
    const err = await client.messages.create(params(messages)).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(err).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect((err as Error).message).toContain(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01abc. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    expect(server.remaining).toBe(1);
    expect(server.requests[0]?.rejected).toContain('tool_use');
    expect(server.requests[0]?.step).toBeUndefined();

    const missing = await client.messages.create(params([...toolTurn(), user('forgot the result')])).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.remaining).toBe(1);
  });

  it('accepts text after the tool_results, and consecutive user messages', async () => {
    const { client } = await start({ script: [reply('ok'), reply('ok again')] });
    const messages = [
      ...toolTurn(),
      user([{ type: 'tool_result', tool_use_id: 'toolu_01abc', content: [text('[]')] }, text('<reminder>plan first</reminder>')]),
    ];
    expect((await client.messages.create(params(messages))).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect((await client.messages.create(params([user('a'), user('b')]))).content).toEqual([{ type: 'text', text: 'ok again' }]);
  });

  it('accepts a streamed reply replayed as is, with parallel tool_results answered in one message', async () => {
    const { server, client } = await start({
      script: [reply(thinking('Two reads.'), text('Reading both.'), toolUse('read', { path: 'a' }), toolUse('read', { path: 'b' })), reply('Both read.')],
    });
    const first = await client.messages.stream(params([user('read a and b')])).finalMessage();
    const ids = first.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    expect(ids).toHaveLength(2);
    const messages: Anthropic.MessageParam[] = [
      user('read a and b'),
      { role: 'assistant', content: first.content },
      user([...ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: `contents of ${id}` })), text('<reminder/>')]),
    ];
    const second = await client.messages.stream(params(messages)).finalMessage();
    expect(second.content).toEqual([{ type: 'text', text: 'Both read.' }]);
    expect(server.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
  });

  it('rejects a tool_result that answers no tool_use of the previous message', async () => {
    const { client } = await start({ script: [] });
    const messages = [
      ...toolTurn(),
      user([
        { type: 'tool_result', tool_use_id: 'toolu_01abc' },
        { type: 'tool_result', tool_use_id: 'toolu_01zzz' },
      ]),
    ];
    await expect(client.messages.create(params(messages))).rejects.toThrow(
      'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01zzz.',
    );
  });

  it('returns the real messages for common mistakes', () => {
    const ok = params([user('hi')]);
    const cases: [unknown, string | null][] = [
      [ok, null],
      [{ ...ok, model: undefined }, 'model: Field required'],
      [{ ...ok, max_tokens: undefined }, 'max_tokens: Field required'],
      [{ ...ok, max_tokens: 0 }, 'max_tokens: Input should be greater than or equal to 1'],
      [{ ...ok, messages: [] }, 'messages: at least one message is required'],
      [params([user([text('')])]), 'messages: text content blocks must be non-empty'],
      [params([user('  \n')]), 'messages: text content blocks must contain non-whitespace text'],
      [params([user([text(' '), text('real')])]), null],
      [params([user('')]), 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
      [params([assistant('hi'), user('hi')]), 'messages: first message must use the "user" role'],
      [{ ...ok, messages: [{ role: 'system', content: 'x' }] }, "messages.0.role: Input should be 'user' or 'assistant'"],
      [params([user('hi'), assistant('Sure, ')]), 'messages: final assistant content cannot end with trailing whitespace'],
      [params([user('hi'), assistant('Sure,')]), null],
      [params([user('hi'), assistant([{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }])]), 'messages.1: `tool_use` ids were found'],
      [
        params([
          user('hi'),
          assistant([{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }]),
          user([{ type: 'tool_result', tool_use_id: 'toolu_1' }]),
          assistant([{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }]),
          user([{ type: 'tool_result', tool_use_id: 'toolu_1' }]),
        ]),
        'messages.3.content.0: `tool_use` ids must be unique',
      ],
      [
        {
          ...params([user([{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }])]),
          system: [1, 2, 3, 4].map((n) => ({ type: 'text', text: `s${n}`, cache_control: { type: 'ephemeral' } })),
        },
        'A maximum of 4 blocks with cache_control may be provided. Found 5.',
      ],
      [{ ...ok, tools: [{ name: 'bad name', input_schema: { type: 'object' } }] }, "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"],
      [
        {
          ...ok,
          tools: [
            { name: 'a', input_schema: { type: 'object' } },
            { name: 'a', input_schema: { type: 'object' } },
          ],
        },
        'tools: Tool names must be unique.',
      ],
      [{ ...ok, thinking: { type: 'enabled', budget_tokens: 2048 } }, '`max_tokens` must be greater than `thinking.budget_tokens`'],
    ];
    for (const [body, expected] of cases) {
      const got = validateMessagesRequest(body);
      if (expected === null) expect(got, JSON.stringify(body)).toBeNull();
      else expect(got, JSON.stringify(body)).toContain(expected);
    }
  });

  it('reports validation errors through the SDK as BadRequestError', async () => {
    const { server, client } = await start({ script: [reply('never')] });
    const body = { model: MODEL, messages: [user('hi')] } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    await expect(client.messages.create(body)).rejects.toThrow('max_tokens: Field required');
    await expect(client.messages.create(params([user([text('')])]))).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.remaining).toBe(1);
  });

  it('can be turned off per server', async () => {
    const { client } = await start({ validate: false, script: [reply('anything goes')] });
    const msg = await client.messages.create(params([assistant('first'), user([text('')])]));
    expect(msg.content).toEqual([{ type: 'text', text: 'anything goes' }]);
  });
});

describe('scripted Anthropic server: function steps and bookkeeping', () => {
  it('lets a step see the request it answers', async () => {
    const { server, client } = await start({
      script: [
        (req) => {
          expect(systemText(req)).toContain('You are Keel');
          expect(req.body.tools?.map((t) => ('name' in t ? t.name : t.type))).toEqual(['todo']);
          return reply(toolUse('todo', { items: ['a'] }, 'toolu_01first'));
        },
        async (req) => {
          await new Promise((r) => setTimeout(r, 5));
          const [result] = toolResults(req);
          expect(lastMessage(req)?.role).toBe('user');
          return reply(result && toolResultText(result) === 'saved 1 item' && !result.is_error ? 'Saved.' : 'Something failed.');
        },
      ],
    });
    const tools: Anthropic.Tool[] = [{ name: 'todo', description: 'todo list', input_schema: { type: 'object', properties: {} } }];
    const system = 'You are Keel.';
    const first = await client.messages.create(params([user('save a')], { system, tools }));
    const messages = [
      user('save a'),
      { role: 'assistant' as const, content: first.content },
      user([{ type: 'tool_result', tool_use_id: 'toolu_01first', content: 'saved 1 item' }]),
    ];
    const second = await client.messages.create(params(messages, { system, tools }));
    expect(second.content).toEqual([{ type: 'text', text: 'Saved.' }]);
    expect(server.requests.map((r) => r.step)).toEqual([0, 1]);
    expect(server.errors).toEqual([]);
  });

  it('turns a throwing step function into a 500 (not retried) and records the error', async () => {
    const { server } = await start({
      script: [
        () => {
          throw new Error('the reminder is missing');
        },
      ],
    });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    const err = await client.messages.create(params([user('hi')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect((err as Error).message).toContain('the reminder is missing');
    expect(server.requests).toHaveLength(1);
    expect(server.errors[0]?.message).toContain('step 0 (a function) threw for request 1: the reminder is missing');
  });

  it('push() appends steps and remaining counts them', async () => {
    const { server, client } = await start({});
    expect(server.remaining).toBe(0);
    server.push(reply('one'), reply('two'));
    expect(server.remaining).toBe(2);
    await client.messages.create(params([user('hi')]));
    expect(server.remaining).toBe(1);
  });

  it('answers GET /v1/models and 404s count_tokens', async () => {
    const { client } = await start({ models: ['claude-test-1'] });
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['claude-test-1']);
    expect((await client.models.retrieve('claude-test-1')).id).toBe('claude-test-1');
    await expect(client.messages.countTokens({ model: MODEL, messages: [user('hi')] })).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});
