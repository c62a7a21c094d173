import type { ContentBlockParam, ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage } from './messageTypes';

export const INTERRUPTED_RESULT =
  'The tool call was interrupted before it returned a result (the task was stopped or Keel exited). It may have run partly; check before relying on it.';

/**
 * Makes a history valid for the Messages API before every request, whatever happened before
 * (a stop mid-tool, a crash, a damaged transcript line): it starts with the person, same-role
 * neighbours are merged, empty text is dropped, and every `tool_use` is answered by a
 * `tool_result` at the very start of the next user message. Pure; the input is not changed.
 */
export function normalizeHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const merged: { role: ChatMessage['role']; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    const content = blocksOf(message).filter((block) => !(block.type === 'text' && block.text.trim() === ''));
    if (content.length === 0) continue;
    const last = merged.at(-1);
    if (last && last.role === message.role) last.content.push(...content);
    else merged.push({ role: message.role, content });
  }
  while (merged[0] && merged[0].role !== 'user') merged.shift();

  const result: ChatMessage[] = [];
  for (let i = 0; i < merged.length; i++) {
    const message = merged[i]!;
    const previous = result.at(-1);
    if (message.role === 'user') {
      const calls = previous?.role === 'assistant' ? toolUsesOf(previous) : [];
      result.push({ role: 'user', content: answerToolCalls(calls, message.content) });
      continue;
    }
    result.push({ role: 'assistant', content: message.content });
    if (toolUsesOf(message).length > 0 && merged[i + 1]?.role !== 'user') {
      result.push({ role: 'user', content: answerToolCalls(toolUsesOf(message), []) });
    }
  }
  return result;
}

/** Tool results first, in call order (a missing one is stated as interrupted); orphans dropped. */
function answerToolCalls(calls: readonly ToolUseBlockParam[], content: readonly ContentBlockParam[]): ContentBlockParam[] {
  const results = new Map<string, ToolResultBlockParam>();
  const rest: ContentBlockParam[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      if (calls.some((call) => call.id === block.tool_use_id) && !results.has(block.tool_use_id)) results.set(block.tool_use_id, block);
    } else rest.push(block);
  }
  const answered = calls.map(
    (call): ToolResultBlockParam => results.get(call.id) ?? { type: 'tool_result', tool_use_id: call.id, content: INTERRUPTED_RESULT, is_error: true },
  );
  return [...answered, ...rest];
}

export function toolUsesOf(message: ChatMessage): ToolUseBlockParam[] {
  return blocksOf(message).filter((block): block is ToolUseBlockParam => block.type === 'tool_use');
}

/** The message's blocks; the stored array itself, so a caller that changes it copies first. */
function blocksOf(message: ChatMessage): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/**
 * The history as a request sends it: normalized (above), and its end marked as a cache
 * breakpoint, so the next round reads everything before it from the prompt cache instead of
 * paying for it again. The stored history never carries cache_control: the mark is set on
 * normalizeHistory's own arrays, on a copy of the last block. One pass over the history a round,
 * not two (the agent-loop bench's history grows to hundreds of messages).
 */
export function requestHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const normalized = normalizeHistory(messages);
  const content = normalized.at(-1)?.content;
  const block = Array.isArray(content) ? content.at(-1) : undefined;
  if (content && block && block.type !== 'thinking' && block.type !== 'redacted_thinking') {
    (content as ContentBlockParam[])[content.length - 1] = { ...block, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
  }
  return normalized;
}
