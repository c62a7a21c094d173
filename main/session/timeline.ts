import type { ChatItem } from '../../common/chat';
import { TaskOutcomeSchema } from '../../common/agentEvents';
import { CompactionInfoSchema } from '../../common/contextWindow';
import { PlanOverrideSchema } from '../../common/plan/schemas';
import { messageExtras, resultImages } from './timelineImages';

/**
 * The chat as the person saw it, rebuilt from transcript records in order: their messages,
 * the model's text, tool calls with their results, Keel's notices and each task's outcome.
 * A message sent while the agent worked takes its place where the agent took it (as in the live
 * chat, see `applyAgentEvent`); one the task ended without taking shows as not sent, and one
 * still waiting (a task that is running) as queued.
 */
export function timelineFromRecords(records: readonly Record<string, unknown>[]): ChatItem[] {
  const items: ChatItem[] = [];
  const tools = new Map<string, number>();
  let waiting: ({ id: string; text: string } & ReturnType<typeof messageExtras>)[] = [];
  let counter = 0;
  for (const record of records) {
    if (record.type === 'task' && record.event === 'start' && typeof record.text === 'string') {
      // Still waiting from a task that never recorded its end (Keel was closed mid-task): never sent.
      for (const message of waiting) items.push({ kind: 'user', ...message, notSent: true });
      waiting = [];
      items.push({ kind: 'user', id: `task-${String(record.taskId)}`, text: record.text, ...messageExtras(record) });
    } else if (record.type === 'task' && record.event === 'queued' && typeof record.text === 'string') {
      waiting.push({ id: String(record.id), text: record.text, ...messageExtras(record) });
    } else if (record.type === 'task' && record.event === 'queue_taken' && Array.isArray(record.ids)) {
      const ids = new Set(record.ids.map(String));
      for (const message of waiting) if (ids.has(message.id)) items.push({ kind: 'user', ...message });
      waiting = waiting.filter((message) => !ids.has(message.id));
    } else if (record.type === 'task' && record.event === 'end') {
      for (const message of waiting) items.push({ kind: 'user', ...message, notSent: true });
      waiting = [];
      const outcome = TaskOutcomeSchema.safeParse(record.outcome);
      if (outcome.success) {
        items.push({
          kind: 'outcome',
          id: `end-${String(record.taskId)}`,
          outcome: outcome.data,
          ...(typeof record.message === 'string' ? { message: record.message } : {}),
          ...(typeof record.openSteps === 'number' ? { openSteps: record.openSteps } : {}),
        });
      }
    } else if (record.type === 'compaction') {
      const info = CompactionInfoSchema.safeParse(record.info);
      if (info.success) items.push({ kind: 'compaction', ...info.data });
    } else if (record.type === 'notice' && typeof record.kind === 'string' && typeof record.message === 'string') {
      const overrides = PlanOverrideSchema.array().safeParse(record.overrides);
      items.push({ kind: 'notice', id: `notice-${counter++}`, notice: record.kind, text: record.message, ...(overrides.success ? { overrides: overrides.data } : {}) });
    } else if (record.type === 'message') {
      const message = record.message as { role?: string; content?: unknown } | undefined;
      if (!message || !Array.isArray(message.content)) continue;
      for (const block of message.content as Record<string, unknown>[]) {
        if (message.role === 'assistant' && block.type === 'text' && typeof block.text === 'string') {
          items.push({ kind: 'assistant', id: `text-${counter++}`, text: block.text });
        } else if (message.role === 'assistant' && block.type === 'tool_use' && typeof block.id === 'string') {
          tools.set(block.id, items.length);
          items.push({ kind: 'tool', id: block.id, name: String(block.name), input: block.input });
        } else if (message.role === 'user' && block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
          const at = tools.get(block.tool_use_id);
          const tool = at === undefined ? undefined : items[at];
          if (tool?.kind === 'tool') items[at!] = { ...tool, result: { content: resultText(block.content), isError: block.is_error === true, ...resultImages(block.content) } };
        }
      }
    }
  }
  for (const message of waiting) items.push({ kind: 'user', ...message, queued: true });
  return items;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
}
