import type { ApiErrorType, ReplyBlock, ReplyShape, ServerToolUseBlockSpec, StopReason, WebSearchToolResultBlockSpec } from './types';

/** Deterministic, plausible-looking ids (`toolu_01…`, `msg_01…`, `req_01…`), one sequence per server. */
export class IdSource {
  private state: number;
  private static readonly alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

  constructor(seed = 0x5eed) {
    this.state = seed >>> 0;
  }

  private nextChar(): string {
    // xorshift32
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return IdSource.alphabet[this.state % IdSource.alphabet.length] as string;
  }

  next(prefix: 'toolu' | 'srvtoolu' | 'msg' | 'req'): string {
    let s = `${prefix}_01`;
    for (let i = 0; i < 22; i++) s += this.nextChar();
    return s;
  }
}

export interface ResolvedToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  partial_json?: string;
}

export type ResolvedServerToolUse = ServerToolUseBlockSpec & { id: string };
export type ResolvedSearchResult = WebSearchToolResultBlockSpec & { tool_use_id: string };

export type ResolvedBlock =
  | Exclude<ReplyBlock, { type: 'tool_use' } | { type: 'server_tool_use' } | { type: 'web_search_tool_result' }>
  | ResolvedToolUse
  | ResolvedServerToolUse
  | ResolvedSearchResult;

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  service_tier: 'standard';
  /** Present when the reply searched the web. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
}

/** Everything needed to render one reply, as JSON or as SSE. */
export interface ResolvedReply {
  id: string;
  model: string;
  content: ResolvedBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: Usage;
}

const tokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

/** The deterministic size of a request, in tokens: its system prompt, messages and tools as JSON, four characters a token. */
export function requestTokens(requestBody: unknown): number {
  const body = (typeof requestBody === 'object' && requestBody !== null ? requestBody : {}) as Record<string, unknown>;
  return tokens(JSON.stringify({ system: body.system, messages: body.messages, tools: body.tools }).length);
}

export function resolveReply(shape: Partial<ReplyShape>, requestBody: unknown, ids: IdSource): ResolvedReply {
  let lastSearch: string | undefined;
  const content: ResolvedBlock[] = (shape.content ?? []).map((b): ResolvedBlock => {
    if (b.type === 'tool_use') return { ...b, id: b.id ?? ids.next('toolu') };
    if (b.type === 'server_tool_use') return { ...b, id: (lastSearch = b.id ?? ids.next('srvtoolu')) };
    if (b.type === 'web_search_tool_result') return { ...b, tool_use_id: b.tool_use_id ?? lastSearch ?? ids.next('srvtoolu') };
    return b;
  });
  const searches = content.filter((b) => b.type === 'server_tool_use' && b.name === 'web_search').length;
  const body = (typeof requestBody === 'object' && requestBody !== null ? requestBody : {}) as Record<string, unknown>;
  const model = shape.model ?? (typeof body.model === 'string' ? body.model : 'claude-scripted');
  const stop_reason = shape.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const outputChars = content.reduce((n, b) => n + blockChars(b), 0);
  const u = shape.usage ?? {};
  const cacheCreation = u.cache_creation_input_tokens ?? 0;
  return {
    id: shape.id ?? ids.next('msg'),
    model,
    content,
    stop_reason,
    stop_sequence: shape.stop_sequence ?? null,
    usage: {
      input_tokens: u.input_tokens ?? requestTokens(body),
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
      output_tokens: u.output_tokens ?? tokens(outputChars),
      service_tier: 'standard',
      ...(searches > 0 ? { server_tool_use: { web_search_requests: searches, web_fetch_requests: 0 } } : {}),
    },
  };
}

function blockChars(b: ResolvedBlock): number {
  switch (b.type) {
    case 'text':
      return b.text.length;
    case 'tool_use':
      return b.name.length + (b.partial_json ?? JSON.stringify(b.input) ?? '').length;
    case 'thinking':
      return b.thinking.length;
    case 'redacted_thinking':
      return b.data.length / 4;
    case 'server_tool_use':
      return JSON.stringify(b.input).length;
    case 'web_search_tool_result':
      return 0; // the API does not bill search results as output
  }
}

function stopDetails(stop_reason: StopReason): { type: 'refusal'; category: null; explanation: null } | null {
  return stop_reason === 'refusal' ? { type: 'refusal', category: null, explanation: null } : null;
}

/** A block as the API returns it (and as a client must send it back). */
export function finalBlock(b: ResolvedBlock): Record<string, unknown> {
  switch (b.type) {
    case 'text':
      return b.citations ? { type: 'text', text: b.text, citations: b.citations.map(finalCitation) } : { type: 'text', text: b.text };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'thinking':
      return { type: 'thinking', thinking: b.thinking, signature: b.signature ?? defaultSignature(b.thinking) };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: b.data };
    case 'server_tool_use':
      return { type: 'server_tool_use', id: b.id, name: b.name, input: b.input, caller: { type: 'direct' } };
    case 'web_search_tool_result':
      return { type: 'web_search_tool_result', tool_use_id: b.tool_use_id, content: searchContent(b), caller: { type: 'direct' } };
  }
}

function searchContent(b: ResolvedSearchResult): unknown {
  if (!Array.isArray(b.content)) return { type: b.content.type, error_code: b.content.error_code };
  return b.content.map((r) => ({
    type: 'web_search_result',
    url: r.url,
    title: r.title,
    encrypted_content: r.encrypted_content ?? '',
    page_age: r.page_age ?? null,
  }));
}

function finalCitation(c: NonNullable<Extract<ResolvedBlock, { type: 'text' }>['citations']>[number]): Record<string, unknown> {
  return { type: 'web_search_result_location', cited_text: c.cited_text, url: c.url, title: c.title, encrypted_index: c.encrypted_index ?? '' };
}

function defaultSignature(thinkingText: string): string {
  return Buffer.from(`scripted-signature:${thinkingText.length}`).toString('base64');
}

/** The non-streaming JSON body. */
export function messageJson(r: ResolvedReply): Record<string, unknown> {
  return {
    id: r.id,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: r.content.map(finalBlock),
    stop_reason: r.stop_reason,
    stop_sequence: r.stop_sequence,
    stop_details: stopDetails(r.stop_reason),
    container: null,
    usage: r.usage,
  };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Split by code points (never inside a surrogate pair) into pieces of at most `size`. */
export function chunkText(s: string, size: number): string[] {
  const chars = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

/** JSON text in several pieces, led by an empty one as the real API does. */
function jsonPieces(json: string): string[] {
  if (json.length <= 2) return ['', json];
  const size = Math.max(1, Math.ceil(json.length / 3));
  return ['', ...chunkText(json, size)];
}

/**
 * The exact SSE sequence of the real API: message_start, content_block_start (the first one is
 * followed by a ping), deltas, content_block_stop, …, message_delta, message_stop.
 */
export function sseEvents(r: ResolvedReply, textChunkChars: number): SseEvent[] {
  const events: SseEvent[] = [];
  const ping = (): void => {
    events.push({ event: 'ping', data: { type: 'ping' } });
  };
  events.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: r.id,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        container: null,
        usage: { ...r.usage, output_tokens: Math.min(1, r.usage.output_tokens) },
      },
    },
  });
  if (r.content.length === 0) ping();
  r.content.forEach((b, index) => {
    const start = (content_block: Record<string, unknown>): void => {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block } });
      if (index === 0) ping();
    };
    const delta = (d: Record<string, unknown>): void => {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
    };
    switch (b.type) {
      case 'text':
        start({ type: 'text', text: '' });
        for (const citation of b.citations ?? []) delta({ type: 'citations_delta', citation: finalCitation(citation) });
        for (const piece of chunkText(b.text, textChunkChars)) delta({ type: 'text_delta', text: piece });
        break;
      case 'server_tool_use':
        start({ type: 'server_tool_use', id: b.id, name: b.name, input: {}, caller: { type: 'direct' } });
        for (const piece of jsonPieces(JSON.stringify(b.input))) delta({ type: 'input_json_delta', partial_json: piece });
        break;
      case 'web_search_tool_result':
        // The results arrive whole, in the block's start, as the API sends them.
        start(finalBlock(b));
        break;
      case 'tool_use':
        start({ type: 'tool_use', id: b.id, name: b.name, input: {} });
        for (const piece of jsonPieces(b.partial_json ?? JSON.stringify(b.input ?? {}))) {
          delta({ type: 'input_json_delta', partial_json: piece });
        }
        break;
      case 'thinking':
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const piece of chunkText(b.thinking, textChunkChars)) delta({ type: 'thinking_delta', thinking: piece });
        delta({ type: 'signature_delta', signature: b.signature ?? defaultSignature(b.thinking) });
        break;
      case 'redacted_thinking':
        start({ type: 'redacted_thinking', data: b.data });
        break;
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: r.stop_reason, stop_sequence: r.stop_sequence, stop_details: stopDetails(r.stop_reason), container: null },
      usage: {
        input_tokens: r.usage.input_tokens,
        cache_creation_input_tokens: r.usage.cache_creation_input_tokens,
        cache_read_input_tokens: r.usage.cache_read_input_tokens,
        output_tokens: r.usage.output_tokens,
        ...(r.usage.server_tool_use ? { server_tool_use: r.usage.server_tool_use } : {}),
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function frame(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

// ---- errors -------------------------------------------------------------------------------------

const typeByStatus: Record<number, ApiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const messageByType: Record<ApiErrorType, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  billing_error: 'Your credit balance is too low to access the Anthropic API.',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  timeout_error: 'Request timed out',
  overloaded_error: 'Overloaded',
};

export function errorTypeFor(status: number): ApiErrorType {
  return typeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function statusFor(type: ApiErrorType): number {
  const found = Object.entries(typeByStatus).find(([, t]) => t === type);
  return found ? Number(found[0]) : 500;
}

export function errorBody(type: ApiErrorType, message: string | undefined, requestId: string): Record<string, unknown> {
  return { type: 'error', error: { type, message: message ?? messageByType[type] }, request_id: requestId };
}
