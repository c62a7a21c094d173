import type Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsStreaming, ServerToolUseBlock, WebSearchToolResultBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ModelErrorCode } from '../../common/errorCodes';
import { citedPages, type WebSearchHit } from '../../common/webSearch';
import type { ModelSettings } from '../settings/modelSettings';
import { loadAnthropicSdk, loadedAnthropicSdk } from '../models/anthropicSdk';
import { withDeprecationWarningsOnce } from './sdkWarnings';

/** How often a stream cut mid-message is tried again from the last complete state. */
export const STREAM_RETRIES = 3;
/**
 * A stream that goes silent this long is treated as cut. The SDK's own timeout ends at the
 * response headers, so without this a stalled stream would wait forever.
 */
export const STREAM_IDLE_MS = 90_000;

/** A failed model request: `code` for whoever branches on it, the message in main's English with the API's details. */
export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type ServerBlock = ServerToolUseBlock | WebSearchToolResultBlock;

export interface RoundCallbacks {
  onText(delta: string): void;
  /** The model's thinking as it streams; `redacted`: a block the model hid (no text). */
  onThinking?(delta: string, redacted?: boolean): void;
  /** A block the API's own tools made (a web search and its results), once it has streamed whole. */
  onServerBlock?(block: ServerBlock): void;
  /** A text block that cites web pages (the API's web search) has streamed whole: those pages. */
  onCitations?(sources: WebSearchHit[]): void;
  /** A cut stream is being tried again: text streamed so far for this round is void. */
  onRetry(attempt: number, reason: string): void;
}

export async function createModelClient(settings: ModelSettings): Promise<Anthropic> {
  if (!settings.apiKey) {
    throw new ModelError('no_key', 'No API key is set. Set ANTHROPIC_API_KEY, or add "apiKey" to the settings file.');
  }
  const Anthropic = await loadAnthropicSdk();
  // The SDK itself retries 429, 5xx and 529 before a stream starts, with backoff.
  return new Anthropic({ apiKey: settings.apiKey, baseURL: settings.baseURL ?? null, maxRetries: 4 });
}

/**
 * One model round, streamed. A stream that breaks after it started is retried from scratch (the
 * partial message is never kept) a bounded number of times; API errors are final and described.
 */
export async function streamRound(
  client: Anthropic,
  params: Omit<MessageCreateParamsStreaming, 'stream'>,
  callbacks: RoundCallbacks,
  signal: AbortSignal,
  settings: ModelSettings,
  idleMs: number = STREAM_IDLE_MS,
  headers?: Record<string, string>,
): Promise<Message> {
  for (let attempt = 0; ; attempt++) {
    let stalled = false;
    let idle: IdleWatch | undefined;
    try {
      const stream = withDeprecationWarningsOnce(() => client.messages.stream(params, headers ? { signal, headers } : { signal }));
      idle = idleWatch(idleMs, () => ((stalled = true), stream.abort()));
      const seen = idle.seen;
      stream.on('streamEvent', () => seen());
      stream.on('text', (delta) => callbacks.onText(delta));
      if (callbacks.onThinking) {
        const onThinking = callbacks.onThinking;
        stream.on('thinking', (delta) => onThinking(delta));
        stream.on('contentBlock', (block) => block.type === 'redacted_thinking' && onThinking('', true));
      }
      if (callbacks.onServerBlock) {
        const onServerBlock = callbacks.onServerBlock;
        stream.on(
          'contentBlock',
          (block) => ((block.type === 'server_tool_use' && block.name === 'web_search') || block.type === 'web_search_tool_result') && onServerBlock(block),
        );
      }
      if (callbacks.onCitations) {
        const onCitations = callbacks.onCitations;
        stream.on('contentBlock', (block) => {
          const pages = block.type === 'text' ? citedPages(block) : [];
          if (pages.length > 0) onCitations(pages);
        });
      }
      return await stream.finalMessage();
    } catch (error) {
      if (signal.aborted) throw error;
      const retryable = stalled || isCutStream(error);
      if (!retryable || attempt >= STREAM_RETRIES) {
        throw stalled
          ? new ModelError(
              'connection',
              `The model's answer stalled (no data for ${Math.round(idleMs / 1000)} s) ${STREAM_RETRIES + 1} times. Check the network and the endpoint.`,
            )
          : describeModelError(error, settings);
      }
      callbacks.onRetry(attempt + 1, stalled ? `no data for ${Math.round(idleMs / 1000)} s` : redact(errorText(error), settings.apiKey));
      await sleep(250 * 2 ** attempt, signal);
    } finally {
      idle?.stop();
    }
  }
}

interface IdleWatch {
  /** An event arrived. */
  seen(): void;
  stop(): void;
}

/**
 * Calls `onIdle` once no event has been seen for `idleMs`. An event only notes its time and one
 * timer checks it: a timer set again on every event (a thinking block streams dozens a round) was
 * the loop's biggest cost of its own in the agent-loop bench.
 */
function idleWatch(idleMs: number, onIdle: () => void): IdleWatch {
  let last = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const quiet = performance.now() - last;
    if (quiet >= idleMs) onIdle();
    else timer = setTimeout(check, idleMs - quiet);
  };
  timer = setTimeout(check, idleMs);
  return {
    seen: () => {
      last = performance.now();
    },
    stop: () => clearTimeout(timer),
  };
}

/** A connection that broke, as opposed to an answer from the API. */
function isCutStream(error: unknown): boolean {
  const Anthropic = loadedAnthropicSdk();
  if (Anthropic === undefined) return true;
  if (error instanceof Anthropic.APIUserAbortError) return false;
  if (error instanceof Anthropic.APIError) return error.status === undefined || error instanceof Anthropic.APIConnectionError;
  return true;
}

export function describeModelError(error: unknown, settings: ModelSettings): ModelError {
  const where = settings.baseURL ? ` at ${settings.baseURL}` : '';
  const detail = redact(errorText(error), settings.apiKey).replace(/[.\s]+$/, '');
  if (error instanceof ModelError) return error;
  // Not loaded: then no request was made, and no error can be the SDK's.
  const Anthropic = loadedAnthropicSdk();
  if (Anthropic === undefined)
    return new ModelError('connection', `The connection to the model${where} failed: ${detail}. Check the network and the base URL.`);
  if (error instanceof Anthropic.AuthenticationError) {
    return new ModelError('auth', `The API key was refused (401)${where}. Check the API key in the settings or ANTHROPIC_API_KEY.`);
  }
  if (error instanceof Anthropic.PermissionDeniedError) {
    return new ModelError('forbidden', `The API refused access (403)${where}: ${detail}. Check that the key may use model "${settings.model}".`);
  }
  if (error instanceof Anthropic.NotFoundError) {
    return new ModelError('not_found', `Not found (404)${where}: ${detail}. Check the model name ("${settings.model}") and the base URL.`);
  }
  if (error instanceof Anthropic.BadRequestError) {
    return new ModelError('bad_request', `The API rejected the request (400): ${detail}`);
  }
  if (error instanceof Anthropic.APIError && error.status !== undefined) {
    const overloaded = error.status === 529 || error.status === 429 || error.status >= 500;
    return new ModelError(overloaded ? 'overloaded' : 'api', `The API answered ${error.status} after retries${where}: ${detail}. Try again later.`);
  }
  return new ModelError('connection', `The connection to the model${where} failed: ${detail}. Check the network and the base URL.`);
}

/** The API's own words ("model: x"), not the SDK's `404 {"type":"error",…}` wrapping of them. */
function errorText(error: unknown): string {
  const Anthropic = loadedAnthropicSdk();
  if (Anthropic !== undefined && error instanceof Anthropic.APIError && error.apiMessage) return error.apiMessage;
  return error instanceof Error ? error.message : String(error);
}

/** The key must never reach a log, a transcript or the screen, even inside an error message. */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
