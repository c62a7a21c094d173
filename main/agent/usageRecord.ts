import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../../common/agentEvents';
import type { WorkspaceSession } from '../session/workspaceSession';

/** Adds one answer's tokens to the session's totals and tells the window both. */
export function recordUsage(session: WorkspaceSession, response: Message, emit: (event: AgentEvent) => void): void {
  const u = response.usage;
  const round = {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheCreationTokens: u.cache_creation_input_tokens ?? 0,
    ...(u.server_tool_use?.web_search_requests ? { webSearches: u.server_tool_use.web_search_requests } : {}),
  };
  session.recordUsage(round);
  emit({ type: 'usage', round, session: { ...session.usage } });
}
