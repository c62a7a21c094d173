/**
 * A scripted Anthropic-compatible Messages API server for tests that drive the REAL SDK:
 *
 *   const server = await startScriptedAnthropic({ script: [reply(toolUse('todo', { items: [] })), reply('done')] });
 *   const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
 *   ...
 *   expect(server.remaining).toBe(0);
 *   expect(server.errors).toEqual([]);
 *   await server.close();
 *
 * Each POST /v1/messages consumes one step, in order: a reply, a fault (status / cut / hang /
 * stream_error / reset), or a function of the request returning one. JSON or SSE follows `stream: true`.
 * Requests are validated like the real API first (400, no step consumed) unless `validate: false`.
 *
 * Several agents at once (a main agent and its helpers): `agents: [{ name, firstMessage, script, delayMs }]`
 * routes each request by its conversation's first user message to that agent's own script; requests are
 * served concurrently and `server.agent(name).requests` is that agent's log.
 *
 * Web search, as the API runs it on its side: `reply(...webSearch('query', [{ url, title }]), cited('answer', { url, title }))`
 * streams a server_tool_use, its web_search_tool_result and a text block with citations, and
 * reports usage.server_tool_use; a later request must carry those blocks exactly as they came.
 */
export { startScriptedAnthropic } from './server';
export { firstUserText } from './agents';
export {
  cited,
  cut,
  errorStatus,
  hang,
  imagesOf,
  lastMessage,
  overloaded,
  rateLimited,
  redactedThinking,
  reply,
  reset,
  streamError,
  systemText,
  text,
  textOf,
  thinking,
  toolResultText,
  toolResults,
  toolUse,
  webSearch,
} from './steps';
export { validateMessagesRequest } from './validate';
export type {
  ApiErrorType,
  CitationSpec,
  CutFault,
  Fault,
  HangFault,
  RedactedThinkingBlockSpec,
  ReplyBlock,
  ReplyShape,
  ReplyStep,
  ResetFault,
  ScriptedAgent,
  ScriptedAgentOptions,
  ScriptedAnthropic,
  ScriptedAnthropicOptions,
  ScriptedEffort,
  ScriptedModel,
  ScriptedThinkingType,
  ServerToolUseBlockSpec,
  ScriptedRequest,
  StaticStep,
  StatusFault,
  Step,
  StepFn,
  StopReason,
  StreamErrorFault,
  TextBlockSpec,
  ThinkingBlockSpec,
  Timing,
  ToolUseBlockSpec,
  UsageSpec,
  WebSearchErrorCode,
  WebSearchResultSpec,
  WebSearchToolResultBlockSpec,
} from './types';
