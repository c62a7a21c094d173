import { z } from 'zod';
import type { AgentEvent } from './agentEvents';
import { TaskOutcomeSchema } from './agentEvents';

/** One entry of the chat as the person sees it; built from the transcript, then kept live from agent events. */
export const ChatItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    /** Sent while the agent worked and not yet taken by it. */
    queued: z.boolean().optional(),
    /** Queued, then the task stopped before taking it: it never reached the model. */
    notSent: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), streaming: z.boolean().optional() }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    output: z.string().optional(),
    result: z.object({ content: z.string(), isError: z.boolean() }).optional(),
  }),
  z.object({ kind: z.literal('notice'), id: z.string(), notice: z.string(), text: z.string() }),
  z.object({ kind: z.literal('outcome'), id: z.string(), outcome: TaskOutcomeSchema, message: z.string().optional() }),
]);
export type ChatItem = z.infer<typeof ChatItemSchema>;

const MAX_LIVE_OUTPUT = 64 * 1024;

/**
 * Folds one agent event into the chat. Pure, and it only ever replaces the LAST items it touches,
 * so a long chat is not rebuilt on every streamed token.
 */
export function applyAgentEvent(items: readonly ChatItem[], event: AgentEvent, newId: () => string): ChatItem[] {
  const last = items.at(-1);
  switch (event.type) {
    case 'task_started':
      return [...items, { kind: 'user', id: `task-${event.taskId}`, text: event.text }];
    case 'text':
      if (last?.kind === 'assistant' && last.streaming) return [...items.slice(0, -1), { ...last, text: last.text + event.delta }];
      return [...items, { kind: 'assistant', id: newId(), text: event.delta, streaming: true }];
    case 'stream_retry':
      // The partial answer is void: the round starts again.
      return last?.kind === 'assistant' && last.streaming ? items.slice(0, -1) : [...items];
    case 'tool_call':
      return [...endStreaming(items), { kind: 'tool', id: event.id, name: event.name, input: event.input }];
    case 'tool_output':
      return updateTool(items, event.id, (tool) => ({ ...tool, output: ((tool.output ?? '') + event.chunk).slice(-MAX_LIVE_OUTPUT) }));
    case 'tool_result':
      return updateTool(items, event.id, (tool) => ({ ...tool, result: { content: event.content, isError: event.isError } }));
    case 'message_queued':
      return [...items, { kind: 'user', id: event.id, text: event.text, queued: true }];
    case 'message_taken':
    case 'message_dropped': {
      const ids = new Set(event.ids);
      const dropped = event.type === 'message_dropped';
      return items.map((item) => (item.kind === 'user' && ids.has(item.id) ? { kind: 'user', id: item.id, text: item.text, ...(dropped ? { notSent: true } : {}) } : item));
    }
    case 'notice':
      return [...endStreaming(items), { kind: 'notice', id: newId(), notice: event.kind, text: event.message }];
    case 'task_finished':
      return [...endStreaming(items), { kind: 'outcome', id: `end-${event.taskId}`, outcome: event.outcome, ...(event.message ? { message: event.message } : {}) }];
    default:
      return [...items];
  }
}

function endStreaming(items: readonly ChatItem[]): ChatItem[] {
  const last = items.at(-1);
  if (last?.kind === 'assistant' && last.streaming) return [...items.slice(0, -1), { kind: 'assistant', id: last.id, text: last.text }];
  return [...items];
}

function updateTool(items: readonly ChatItem[], id: string, change: (tool: Extract<ChatItem, { kind: 'tool' }>) => ChatItem): ChatItem[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'tool' && item.id === id) return [...items.slice(0, i), change(item), ...items.slice(i + 1)];
  }
  return [...items];
}
