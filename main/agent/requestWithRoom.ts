import type Anthropic from '@anthropic-ai/sdk';
import type { Message, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../../common/agentEvents';
import type { ModelCatalogue } from '../models/modelCatalogue';
import type { ModelProfile } from '../models/modelProfile';
import type { WorkspaceSession } from '../session/workspaceSession';
import type { ContextKeeper, RoomContext } from './compaction/contextKeeper';
import { isContextOverflow, parseOverflow } from './compaction/contextTracker';
import { requestHistory } from './history';
import { ModelError, type ServerBlock } from './modelClient';
import { webSearchOutcome, webSearchQuery } from '../../common/webSearch';
import { requestRound } from './modelRequest';
import { tooLongMessage } from './modelTexts';
import type { Notify } from './notice';
import type { TaskEnding } from './taskRecords';

export interface RoundRequest {
  client: Anthropic;
  profile: ModelProfile;
  room: RoomContext;
  context: ContextKeeper;
  session: WorkspaceSession;
  models: ModelCatalogue | undefined;
  system: TextBlockParam[];
  tools: Tool[];
  emit: (event: AgentEvent) => void;
  notice: Notify;
}

/** The model's answer, or why the task ends without one (`cancelled`: the person stopped it). */
export type RoundAnswer = { kind: 'answer'; response: Message } | { kind: 'cancelled' } | { kind: 'ended'; end: TaskEnding };

/**
 * One round's request, kept inside the model's window: room is made before it when needed, and
 * when the service refuses the size, once more before asking again. A second refusal ends the
 * task with the session made small enough for the next message; it is never left too big.
 */
export async function requestWithRoom(request: RoundRequest): Promise<RoundAnswer> {
  const { context, room, session } = request;
  const { settings, signal } = room;
  for (let refusals = 0; ;) {
    try {
      await context.beforeRequest(room);
      const sent = session.messages.length;
      /** Web searches shown from the attempt now streaming: a retry voids them with its text. */
      let searches: string[] = [];
      const response = await requestRound(
        request.client,
        request.profile,
        {
          model: settings.model,
          max_tokens: settings.maxTokens,
          system: request.system,
          tools: request.tools,
          messages: requestHistory(session.messages),
        },
        {
          onText: (delta) => request.emit({ type: 'text', delta }),
          onThinking: (delta, redacted) => request.emit({ type: 'thinking', delta, ...(redacted ? { redacted } : {}) }),
          onServerBlock: (block) => {
            const event = webSearchEvent(block);
            if (event.type === 'web_search') searches.push(event.id);
            request.emit(event);
          },
          onCitations: (sources) => request.emit({ type: 'citations', sources }),
          onRetry: (attempt, reason) => {
            request.emit({ type: 'stream_retry', attempt, reason, ...(searches.length > 0 ? { webSearches: searches } : {}) });
            searches = [];
          },
        },
        signal,
        { catalogue: request.models, onFallback: (message) => request.notice('model', message) },
      );
      context.observe(response.usage, sent);
      return { kind: 'answer', response };
    } catch (error) {
      if (signal.aborted) return { kind: 'cancelled' };
      if (error instanceof ModelError && isContextOverflow(error.message)) {
        const stated = parseOverflow(error.message);
        if (stated) request.models?.learnWindow(settings, stated.limit);
        if (++refusals === 1) {
          await context.afterRefusal(room, error.message, context.requestTokens());
          continue;
        }
        const madeRoom = context.lastResort(settings, room.task);
        request.emit({ type: 'context', ...context.usage(settings) });
        return { kind: 'ended', end: { outcome: 'error', message: tooLongMessage(error.message, settings.contextWindow, madeRoom), errorCode: 'too_long' } };
      }
      if (error instanceof ModelError) return { kind: 'ended', end: { outcome: 'error', message: error.message, errorCode: error.code } };
      throw error;
    }
  }
}

/** A web search block as the chat and `keel run` are told of it. */
function webSearchEvent(block: ServerBlock): AgentEvent {
  if (block.type === 'server_tool_use') return { type: 'web_search', id: block.id, query: webSearchQuery(block.input) };
  const { results, errorCode } = webSearchOutcome(block.content);
  return { type: 'web_search_results', id: block.tool_use_id, results, ...(errorCode ? { errorCode } : {}) };
}
