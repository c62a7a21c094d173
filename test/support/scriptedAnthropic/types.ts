import type Anthropic from '@anthropic-ai/sdk';

/** A text block the scripted model answers with; `citations` point at web search results of the same reply. */
export interface TextBlockSpec {
  type: 'text';
  text: string;
  citations?: CitationSpec[];
}

/** A web_search_result_location citation; `encrypted_index` is made by the server when omitted. */
export interface CitationSpec {
  type?: 'web_search_result_location';
  url: string;
  title: string | null;
  cited_text: string;
  encrypted_index?: string;
}

/** The server's own web search call (`srvtoolu_01…` generated when the id is omitted). */
export interface ServerToolUseBlockSpec {
  type: 'server_tool_use';
  id?: string;
  name: 'web_search';
  input: { query: string };
}

/** One result; `encrypted_content` is made by the server when omitted, `page_age` defaults to null. */
export interface WebSearchResultSpec {
  url: string;
  title: string;
  page_age?: string | null;
  encrypted_content?: string;
}

export type WebSearchErrorCode = 'invalid_tool_input' | 'unavailable' | 'max_uses_exceeded' | 'too_many_requests' | 'query_too_long' | 'request_too_large';

/** The results of a search; `tool_use_id` defaults to the server_tool_use just before it. */
export interface WebSearchToolResultBlockSpec {
  type: 'web_search_tool_result';
  tool_use_id?: string;
  content: WebSearchResultSpec[] | { type: 'web_search_tool_result_error'; error_code: WebSearchErrorCode };
}

/** A tool call the scripted model makes. `id` is generated (`toolu_01…`) when omitted. */
export interface ToolUseBlockSpec {
  type: 'tool_use';
  id?: string;
  name: string;
  input: unknown;
  /**
   * Streaming only: the raw JSON text sent as `input_json_delta` pieces instead of
   * `JSON.stringify(input)`, e.g. a truncated object to mimic `stop_reason: 'max_tokens'` mid-call.
   */
  partial_json?: string;
}

/** Extended thinking; streamed as thinking_delta pieces then one signature_delta. */
export interface ThinkingBlockSpec {
  type: 'thinking';
  thinking: string;
  signature?: string;
}

export interface RedactedThinkingBlockSpec {
  type: 'redacted_thinking';
  data: string;
}

export type ReplyBlock =
  TextBlockSpec | ToolUseBlockSpec | ThinkingBlockSpec | RedactedThinkingBlockSpec | ServerToolUseBlockSpec | WebSearchToolResultBlockSpec;

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'stop_sequence' | 'pause_turn' | 'model_context_window_exceeded';

/** Any field left out gets a plausible value (input estimated from the request, output from the reply). */
export interface UsageSpec {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface Timing {
  /** Wait this long before sending the response headers. */
  delayMs?: number;
  /**
   * Streaming: wait this long between SSE events. A function is asked before each event, so a
   * test can let the rest of a long stream go quickly once it has seen what it watched it for.
   */
  chunkDelayMs?: number | (() => number);
}

/** The body of a reply: what the assistant says. */
export interface ReplyShape {
  content: ReplyBlock[];
  /** Default: 'tool_use' when a tool_use block is present, else 'end_turn'. */
  stop_reason?: StopReason;
  /** Only meaningful with stop_reason 'stop_sequence'. */
  stop_sequence?: string | null;
  usage?: UsageSpec;
  /** Default: the request's `model`. */
  model?: string;
  /** Default: generated `msg_01…`. */
  id?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export interface ReplyStep extends ReplyShape, Timing {
  fault?: undefined;
}

export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

/** Answer with an HTTP error status and the Anthropic error JSON. */
export interface StatusFault {
  fault: 'status';
  status: number;
  /** Default derived from the status (529 overloaded_error, 429 rate_limit_error, …). */
  errorType?: ApiErrorType;
  /** Default: a message like the real API's for that type. */
  message?: string;
  /** Replaces the whole JSON body (an object is JSON-encoded, a string is sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A reply whose connection dies after `after` SSE events (ping included): the socket is destroyed,
 * or with `clean: true` the HTTP response is ended properly but without the remaining events.
 * For a non-streaming request, half of the JSON body is sent before the cut.
 */
export interface CutFault extends Partial<ReplyShape>, Timing {
  fault: 'cut';
  after: number;
  clean?: boolean;
}

/**
 * Never answers: the request stays open until the client aborts (or the server closes).
 * With `after`, a streaming request first receives that many SSE events, then silence.
 */
export interface HangFault extends Partial<ReplyShape>, Timing {
  fault: 'hang';
  after?: number;
}

/**
 * A stream that starts fine (HTTP 200) and, after `after` SSE events, sends an `event: error`
 * (as the real API does when it gets overloaded mid-stream), then ends.
 */
export interface StreamErrorFault extends Partial<ReplyShape>, Timing {
  fault: 'stream_error';
  after: number;
  errorType?: ApiErrorType;
  message?: string;
}

/** Destroys the connection without any response (the SDK sees a connection error and may retry). */
export interface ResetFault {
  fault: 'reset';
  delayMs?: number;
}

export type Fault = StatusFault | CutFault | HangFault | StreamErrorFault | ResetFault;

export type StaticStep = ReplyStep | Fault;

/** A step computed from the request it answers (may be async; may throw to fail the test). */
export type StepFn = (request: ScriptedRequest) => StaticStep | Promise<StaticStep>;

export type Step = StaticStep | StepFn;

/** One POST /v1/messages request as the server received it. */
export interface ScriptedRequest {
  /** 1-based arrival order among /v1/messages requests (rejected ones included). */
  index: number;
  /** `Date.now()` when the body had been read (e.g. to measure the SDK's retry backoff). */
  receivedAt: number;
  /** Path with query string, e.g. `/v1/messages` or `/v1/messages?beta=true`. */
  url: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The parsed JSON body (typed as the SDK's params; unvalidated when `validate: false`). */
  body: Anthropic.MessageCreateParams;
  /** `body.stream === true`. */
  stream: boolean;
  /** Set when the server refused the request before the script (auth or validation), with the message sent. */
  rejected?: string;
  /** 0-based index of the script step that answered it, when one did. */
  step?: number;
  /** Its size in tokens as this server counts them (JSON characters / 4); usage.input_tokens reports the same. */
  tokens: number;
  /** Answered by `sideAnswer` rather than the script. */
  side?: boolean;
  /** The name of the agent (see `ScriptedAnthropicOptions.agents`) whose script answered it. */
  agent?: string;
}

/**
 * One agent the server plays when several share it (a main agent and its helpers). Its requests are
 * those whose conversation's first user message matches `firstMessage` (a string it contains, a
 * RegExp, or a predicate); they consume its own `script` in order, concurrently with other agents'.
 */
export interface ScriptedAgentOptions {
  name: string;
  firstMessage: string | RegExp | ((firstUserText: string) => boolean);
  script: Step[];
  /** Added to every reply's and fault's wait for this agent, so a test can make agents interleave. */
  delayMs?: number;
}

/** One agent's view: its request log (arrival order; requests refused before the script are only in the server's) and its script. */
export interface ScriptedAgent {
  readonly name: string;
  readonly requests: ScriptedRequest[];
  readonly remaining: number;
  push(...steps: Step[]): void;
}

export type ScriptedEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export type ScriptedThinkingType = 'adaptive' | 'enabled' | 'disabled' | 'between_tools';

/** One model of the catalogue GET /v1/models serves; what it lists is also what a request to it may ask for. */
export interface ScriptedModel {
  id: string;
  display_name?: string;
  /** The context window: a bigger request gets "prompt is too long: N tokens > M maximum". */
  max_input_tokens?: number;
  /** A request asking for more gets a 400. */
  max_tokens?: number;
  lifecycle?: 'active' | 'deprecated' | 'retired';
  /** Thinking types accepted besides 'disabled' (always accepted). */
  thinking?: ScriptedThinkingType[];
  /** Effort levels accepted; none: output_config.effort is refused. */
  effort?: ScriptedEffort[];
  serverTools?: ('web_search' | 'code_execution')[];
  /** null: listed without capabilities, as many compatible endpoints do (nothing is checked but max_tokens). */
  capabilities?: null;
}

export interface ScriptedAnthropicOptions {
  /** With `agents`: answers requests no agent claims (an empty or missing one makes them an error). */
  script?: Step[];
  /**
   * Several agents on one server, told apart by their first user message. A request two agents claim
   * is a script error (500, recorded in `errors`), as is a request for an agent whose script ran out.
   */
  agents?: ScriptedAgentOptions[];
  /** Default 0 (any free port). Always listens on 127.0.0.1. */
  port?: number;
  /** Validate requests like the real API (400 invalid_request_error, no step consumed). Default true. */
  validate?: boolean;
  /** When set, requests must carry it as `x-api-key` or `Authorization: Bearer …`, else 401. */
  apiKey?: string;
  /** Ids listed by GET /v1/models (without limits or capabilities) when `catalogue` is not given. */
  models?: string[];
  /**
   * The catalogue GET /v1/models serves, with limits and capabilities that requests to those
   * models are held to. 'missing': the route answers 404, as on many compatible endpoints;
   * 'malformed': it answers 200 with a body that is not a model list.
   */
  catalogue?: ScriptedModel[] | 'missing' | 'malformed';
  /** An endpoint that does not know thinking: any request carrying `thinking` gets a 400 naming it. */
  refuseThinking?: boolean;
  /** Refuse every `anthropic-beta` header value with the API's 400, as an endpoint that takes no beta does (unknown names are always refused). */
  refuseBetas?: boolean;
  /** Streaming: default characters per text_delta / thinking_delta piece. Default 12. */
  textChunkChars?: number;
  /**
   * The model's context window: a request bigger than this many tokens (see `ScriptedRequest.tokens`)
   * is refused like the real API does, `400 invalid_request_error "prompt is too long: N tokens > M maximum"`,
   * without consuming a step.
   */
  contextLimit?: number;
  /**
   * Answers side requests (e.g. a summary the client asks for) without consuming the script: return
   * a step for a request it should answer, undefined to leave it to the script.
   */
  sideAnswer?: (request: ScriptedRequest) => StaticStep | undefined;
}

export interface ScriptedAnthropic {
  /** `http://127.0.0.1:PORT` — give it to `new Anthropic({ baseURL, apiKey })`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every POST /v1/messages request received, in arrival order. */
  readonly requests: ScriptedRequest[];
  /** Every whole reply sent, as the message JSON the API would return for it (what a client must send back). */
  readonly replies: Record<string, unknown>[];
  /** GET /v1/models requests received (the list and single models). */
  readonly modelRequests: number;
  /** The signature this server gives a thinking text (to script a block a client must send back as is). */
  sign(thinking: string): string;
  /** Number of script steps not yet consumed, every agent's included. */
  readonly remaining: number;
  /** The agent of that name (throws for an unknown one). */
  agent(name: string): ScriptedAgent;
  /**
   * Problems of the script itself: a step function that threw, a request after the script ran out.
   * (Each was also answered with a 500 carrying `x-should-retry: false`.) Assert it is empty.
   */
  readonly errors: Error[];
  /** Append steps to the script. */
  push(...steps: Step[]): void;
  close(): Promise<void>;
}
