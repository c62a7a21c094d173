import type Anthropic from '@anthropic-ai/sdk';

import type {
  ApiErrorType,
  CutFault,
  HangFault,
  CitationSpec,
  RedactedThinkingBlockSpec,
  ServerToolUseBlockSpec,
  WebSearchResultSpec,
  WebSearchToolResultBlockSpec,
  ReplyBlock,
  ResetFault,
  ReplyStep,
  ScriptedRequest,
  StatusFault,
  StreamErrorFault,
  TextBlockSpec,
  ThinkingBlockSpec,
  ToolUseBlockSpec,
} from './types';

// ---- reply blocks -------------------------------------------------------------------------------

export function text(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}

/** A tool call; the id is generated (`toolu_01…`) when not given. */
export function toolUse(name: string, input: unknown = {}, id?: string): ToolUseBlockSpec {
  return id === undefined ? { type: 'tool_use', name, input } : { type: 'tool_use', id, name, input };
}

export function thinking(value: string, signature?: string): ThinkingBlockSpec {
  return signature === undefined ? { type: 'thinking', thinking: value } : { type: 'thinking', thinking: value, signature };
}

export function redactedThinking(data: string): RedactedThinkingBlockSpec {
  return { type: 'redacted_thinking', data };
}

/**
 * A web search the server ran inside the reply: its server_tool_use and its results (an error
 * code instead of results for a failed search). Spread it into `reply(...)`.
 */
export function webSearch(
  query: string,
  results: WebSearchResultSpec[] | WebSearchToolResultBlockSpec['content'],
  id?: string,
): [ServerToolUseBlockSpec, WebSearchToolResultBlockSpec] {
  const use: ServerToolUseBlockSpec = { type: 'server_tool_use', name: 'web_search', input: { query } };
  if (id !== undefined) use.id = id;
  const result: WebSearchToolResultBlockSpec = { type: 'web_search_tool_result', content: results };
  if (id !== undefined) result.tool_use_id = id;
  return [use, result];
}

/** A text block citing web search results of the same reply (`cited_text` defaults to the text). */
export function cited(value: string, ...sources: (Omit<CitationSpec, 'cited_text'> & { cited_text?: string })[]): TextBlockSpec {
  return { type: 'text', text: value, citations: sources.map((s) => ({ ...s, cited_text: s.cited_text ?? value })) };
}

type BlockLike = ReplyBlock | string;

function blocks(items: BlockLike[]): ReplyBlock[] {
  return items.map((b) => (typeof b === 'string' ? text(b) : b));
}

/** A reply step; a bare string is a text block. Spread it to add fields: `{ ...reply('hi'), stop_reason: 'max_tokens' }`. */
export function reply(...content: BlockLike[]): ReplyStep {
  return { content: blocks(content) };
}

// ---- faults -------------------------------------------------------------------------------------

/** Any HTTP error status with the Anthropic error body (type derived from the status unless given). */
export function errorStatus(
  status: number,
  options: { errorType?: ApiErrorType; message?: string; headers?: Record<string, string>; body?: unknown; delayMs?: number } = {},
): StatusFault {
  return { fault: 'status', status, ...options };
}

/** 529 overloaded_error. */
export function overloaded(headers?: Record<string, string>): StatusFault {
  return headers ? { fault: 'status', status: 529, headers } : { fault: 'status', status: 529 };
}

/**
 * 429 rate_limit_error with `retry-after: <seconds>` (default 0). Note SDK 1.14 treats a
 * `retry-after` of 0 as "no hint" and uses its own backoff (~0.5 s, 1 s, …); pass
 * `{ 'retry-after-ms': '1' }` in `headers` for an immediate retry.
 */
export function rateLimited(retryAfterSeconds = 0, headers: Record<string, string> = {}): StatusFault {
  return { fault: 'status', status: 429, headers: { 'retry-after': String(retryAfterSeconds), ...headers } };
}

/** A streamed reply whose connection dies after `after` SSE events (see CutFault). */
export function cut(after: number, ...content: BlockLike[]): CutFault {
  return content.length ? { fault: 'cut', after, content: blocks(content) } : { fault: 'cut', after };
}

/** Drops the connection before any response: the SDK raises APIConnectionError, or retries it. */
export function reset(): ResetFault {
  return { fault: 'reset' };
}

/** Never answers (see HangFault). */
export function hang(after?: number): HangFault {
  return after === undefined ? { fault: 'hang' } : { fault: 'hang', after };
}

/** A stream that sends `after` events and then an `event: error` (default overloaded_error). */
export function streamError(after: number, errorType: ApiErrorType = 'overloaded_error', ...content: BlockLike[]): StreamErrorFault {
  const step: StreamErrorFault = { fault: 'stream_error', after, errorType };
  if (content.length) step.content = blocks(content);
  return step;
}

// ---- reading requests (for step functions and assertions) --------------------------------------

type ContentOf = Anthropic.MessageParam['content'];

/** The last message of the request. */
export function lastMessage(request: ScriptedRequest): Anthropic.MessageParam | undefined {
  return request.body.messages.at(-1);
}

function blocksOf(content: ContentOf): Anthropic.ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The tool_result blocks of the last message (empty when it is not a user message carrying results). */
export function toolResults(request: ScriptedRequest): Anthropic.ToolResultBlockParam[] {
  const last = lastMessage(request);
  if (!last || last.role !== 'user') return [];
  return blocksOf(last.content).filter((b): b is Anthropic.ToolResultBlockParam => b.type === 'tool_result');
}

/** The text of a tool_result's content (its text blocks joined with '\n'). */
export function toolResultText(result: Anthropic.ToolResultBlockParam): string {
  const c = result.content;
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  return c
    .filter((b): b is Anthropic.TextBlockParam => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** The text of a message or content (text blocks joined with '\n'; tool_result contents excluded). */
export function textOf(message: Anthropic.MessageParam | ContentOf | undefined): string {
  if (message === undefined) return '';
  const content = typeof message === 'string' || Array.isArray(message) ? message : message.content;
  return blocksOf(content)
    .filter((b): b is Anthropic.TextBlockParam => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** The system prompt as text (string, or text blocks joined with '\n'). */
export function systemText(request: ScriptedRequest): string {
  const s = request.body.system;
  if (s === undefined) return '';
  return typeof s === 'string' ? s : s.map((b) => b.text).join('\n');
}

/** The image blocks of a message or content, those inside tool_result contents included, in order. */
export function imagesOf(message: Anthropic.MessageParam | ContentOf | undefined): Anthropic.ImageBlockParam[] {
  if (message === undefined) return [];
  const content = typeof message === 'string' || Array.isArray(message) ? message : message.content;
  return blocksOf(content).flatMap((b): Anthropic.ImageBlockParam[] => {
    if (b.type === 'image') return [b];
    if (b.type === 'tool_result' && Array.isArray(b.content)) return b.content.filter((inner): inner is Anthropic.ImageBlockParam => inner.type === 'image');
    return [];
  });
}
