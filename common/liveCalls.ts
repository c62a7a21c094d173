import type { ChatItem, ToolItem } from './chat';

/**
 * The chat rebuilt from the transcript, with the live state of its running (or last) task's
 * tool calls laid over it: the output of a call still running, and the result of one that ended
 * before its round was recorded. What the transcript has wins; a call it does not have is left
 * out (it is recorded before its `tool_call` event, so that is a call of another session).
 */
export function withLiveCalls(items: readonly ChatItem[], calls: readonly ToolItem[]): ChatItem[] {
  if (calls.length === 0) return [...items];
  const live = new Map(calls.map((call) => [call.id, call]));
  return items.map((item) => {
    const call = item.kind === 'tool' ? live.get(item.id) : undefined;
    if (item.kind !== 'tool' || !call) return item;
    if (item.result) return item;
    return {
      ...item,
      ...(call.result ? { result: call.result } : call.output !== undefined ? { output: call.output } : {}),
      ...((item.plan ?? call.plan) ? { plan: item.plan ?? call.plan } : {}),
      ...((item.yours ?? call.yours) ? { yours: item.yours ?? call.yours } : {}),
    };
  });
}
