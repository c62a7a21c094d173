import type { AgentEvent } from './agentEvents';
import type { ChatImage, ChatItem } from './chat';
import { addSources } from './webPages';

const MAX_LIVE_OUTPUT = 64 * 1024;

/**
 * Folds one agent event into the chat. Pure, and it only ever replaces the LAST items it touches,
 * so a long chat is not rebuilt on every streamed token.
 *
 * Messages the person sent while the agent works stay at the bottom while they wait: what the
 * agent does meanwhile (its streaming answer, tool calls, notices) goes above them, and they take
 * their place in the conversation when the agent takes them. The transcript's timeline places
 * them the same way.
 */
export function applyAgentEvent(items: readonly ChatItem[], event: AgentEvent, newId: () => string): ChatItem[] {
  switch (event.type) {
    case 'task_started':
      return [...items, { kind: 'user', id: `task-${event.taskId}`, text: event.text, ...extrasOf(event) }];
    case 'text':
      return aboveQueued(items, (body) => {
        const last = body.at(-1);
        if (last?.kind === 'assistant' && last.streaming) return [...body.slice(0, -1), { ...last, text: last.text + event.delta }];
        return [...endStreaming(body), { kind: 'assistant', id: newId(), text: event.delta, streaming: true }];
      });
    case 'thinking':
      return aboveQueued(items, (body) => {
        const last = body.at(-1);
        if (last?.kind === 'thinking' && last.streaming && !event.redacted && !last.redacted)
          return [...body.slice(0, -1), { ...last, text: last.text + event.delta }];
        return [...endStreaming(body), { kind: 'thinking', id: newId(), text: event.delta, streaming: true, ...(event.redacted ? { redacted: true } : {}) }];
      });
    case 'stream_retry':
      // The partial answer is void: the round starts again.
      return aboveQueued(items, (voided) => {
        const searches = new Set(event.webSearches ?? []);
        const body = searches.size > 0 ? voided.filter((item) => !(item.kind === 'web_search' && searches.has(item.id))) : voided;
        let end = body.length;
        while (end > 0 && (body[end - 1]!.kind === 'assistant' || body[end - 1]!.kind === 'thinking') && (body[end - 1] as { streaming?: boolean }).streaming)
          end--;
        return body.slice(0, end);
      });
    case 'tool_call':
      return aboveQueued(items, (body) => [...endStreaming(body), { kind: 'tool', id: event.id, name: event.name, input: event.input }]);
    case 'web_search':
      return aboveQueued(items, (body) => [...endStreaming(body), { kind: 'web_search', id: event.id, query: event.query }]);
    case 'web_search_results':
      return aboveQueued(items, (body) => {
        const at = body.findLastIndex((item) => item.kind === 'web_search' && item.id === event.id);
        const found = body[at];
        if (found?.kind !== 'web_search') return body;
        const done: ChatItem = { ...found, results: event.results, ...(event.errorCode ? { errorCode: event.errorCode } : {}) };
        return [...body.slice(0, at), done, ...body.slice(at + 1)];
      });
    case 'citations':
      // The cited block has just streamed: its text ends the answer being written.
      return aboveQueued(items, (body) => {
        const last = body.at(-1);
        if (last?.kind !== 'assistant' || event.sources.length === 0) return body;
        return [...body.slice(0, -1), { ...last, sources: addSources(last.sources ?? [], event.sources) }];
      });
    case 'tool_output':
      return updateTool(items, event.id, (tool) => ({ ...tool, output: ((tool.output ?? '') + event.chunk).slice(-MAX_LIVE_OUTPUT) }));
    case 'tool_result':
      return updateTool(items, event.id, (tool) => ({
        ...tool,
        result: { content: event.content, isError: event.isError, ...(event.images?.length ? { images: event.images } : {}) },
        ...(event.plan ? { plan: event.plan } : {}),
        ...(event.yours ? { yours: event.yours } : {}),
      }));
    case 'message_queued':
      return [...items, { kind: 'user', id: event.id, text: event.text, ...extrasOf(event), queued: true }];
    case 'message_taken':
    case 'message_dropped': {
      const ids = new Set(event.ids);
      const dropped = event.type === 'message_dropped';
      // Taken: the model's answer before it is complete, the next one starts below the message.
      const settled = aboveQueued(items, endStreaming);
      return settled.map((item) =>
        item.kind === 'user' && ids.has(item.id)
          ? { kind: 'user', id: item.id, text: item.text, ...extrasOf(item), ...(dropped ? { notSent: true } : {}) }
          : item,
      );
    }
    case 'notice':
      return aboveQueued(items, (body) => [
        ...endStreaming(body),
        {
          kind: 'notice',
          id: newId(),
          notice: event.kind,
          text: event.message,
          ...(event.overrides ? { overrides: event.overrides } : {}),
          ...(event.plan ? { plan: event.plan } : {}),
        },
      ]);
    case 'compaction': {
      const { type: _type, ...info } = event;
      return aboveQueued(items, (body) => [...endStreaming(body), { kind: 'compaction', ...info }]);
    }
    case 'task_finished':
      return aboveQueued(items, (body) => [
        ...endStreaming(body),
        {
          kind: 'outcome',
          id: `end-${event.taskId}`,
          outcome: event.outcome,
          ...(event.message ? { message: event.message } : {}),
          ...(event.errorCode ? { errorCode: event.errorCode } : {}),
          ...(event.openSteps === undefined ? {} : { openSteps: event.openSteps }),
        },
      ]);
    default:
      return [...items];
  }
}

/** The pictures and mentions a message carries, left out when it has none. */
function extrasOf(from: { images?: ChatImage[]; mentions?: string[] }): { images?: ChatImage[]; mentions?: string[] } {
  return { ...(from.images?.length ? { images: from.images } : {}), ...(from.mentions?.length ? { mentions: from.mentions } : {}) };
}

/** Applies `change` to the chat above the messages still waiting at its bottom, which stay last. */
function aboveQueued(items: readonly ChatItem[], change: (body: ChatItem[]) => ChatItem[]): ChatItem[] {
  let split = items.length;
  while (split > 0 && isQueued(items[split - 1]!)) split--;
  if (split === items.length) return change([...items]);
  return [...change(items.slice(0, split)), ...items.slice(split)];
}

function isQueued(item: ChatItem): boolean {
  return item.kind === 'user' && item.queued === true;
}

/** The streamed answer is complete; one of only whitespace is not kept (the transcript drops it too). */
function endStreaming(items: readonly ChatItem[]): ChatItem[] {
  const last = items.at(-1);
  if (last?.kind === 'assistant' && last.streaming) {
    const { streaming: _streaming, ...done } = last;
    return last.text.trim() === '' ? items.slice(0, -1) : [...items.slice(0, -1), done];
  }
  if (last?.kind === 'thinking' && last.streaming) {
    const { streaming: _streaming, ...done } = last;
    return [...items.slice(0, -1), done];
  }
  return [...items];
}

function updateTool(items: readonly ChatItem[], id: string, change: (tool: Extract<ChatItem, { kind: 'tool' }>) => ChatItem): ChatItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool' && item.id === id) return [...items.slice(0, i), change(item), ...items.slice(i + 1)];
  }
  return [...items];
}
