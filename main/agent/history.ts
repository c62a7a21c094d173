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
 * paying for it again. The stored history never carries cache_control: the mark is set on a copy
 * of the last message and block. A history that is already valid (every round of a task that
 * ran without a stop or a crash) is sent as it is stored, without normalizeHistory's copy of
 * every message's blocks, and only the messages added since the last request are checked: both
 * grew with the history, a cost the agent-loop bench's history of hundreds of messages paid
 * every round.
 */
export function requestHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const history = validHistory(messages) ?? normalizeHistory(messages);
  const last = history.at(-1);
  const content = last?.content;
  const block = Array.isArray(content) ? content.at(-1) : undefined;
  if (last && Array.isArray(content) && block && block.type !== 'thinking' && block.type !== 'redacted_thinking') {
    const marked = { ...block, cache_control: { type: 'ephemeral' } } as ContentBlockParam;
    history[history.length - 1] = { role: last.role, content: [...content.slice(0, -1), marked] } as ChatMessage;
  }
  return history;
}

/**
 * Per stored history, the messages the last request found valid from its start, and what it sent
 * for each. A stored message is never changed in place (the session appends new ones, and a
 * compaction replaces them whole), so the same message at the same place needs no second look.
 */
const checkedHistories = new WeakMap<readonly ChatMessage[], { stored: ChatMessage[]; sent: ChatMessage[] }>();

/**
 * The history as normalizeHistory would give it back when that is the stored messages and blocks
 * themselves (`{ role, content }` of each), or null when normalizeHistory would change it.
 */
function validHistory(messages: readonly ChatMessage[]): ChatMessage[] | null {
  let checked = checkedHistories.get(messages);
  if (!checked) checkedHistories.set(messages, (checked = { stored: [], sent: [] }));
  const { stored, sent } = checked;
  let from = 0;
  while (from < stored.length && from < messages.length && messages[from] === stored[from]) from++;
  stored.length = from;
  sent.length = from;
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (!isValidAt(messages, i)) return null;
    stored.push(message);
    sent.push({ role: message.role, content: message.content } as ChatMessage);
  }
  // A call the history ends with is answered by normalizeHistory's own user message.
  const last = messages.at(-1);
  if (last?.role === 'assistant' && (last.content as readonly ContentBlockParam[]).some((block) => block.type === 'tool_use')) return null;
  return [...sent];
}

/**
 * Whether normalizeHistory keeps message `i` as it is, given the one before it: it starts with the
 * person and roles alternate, its content is no string, not empty and has no blank text, and a
 * user message starts with the results of the calls before it, in call order, and holds no other.
 */
function isValidAt(messages: readonly ChatMessage[], i: number): boolean {
  const { role, content } = messages[i]!;
  if (typeof content === 'string' || content.length === 0) return false;
  if (role !== (i % 2 === 0 ? 'user' : 'assistant')) return false;
  for (const block of content) if (block.type === 'text' && block.text.trim() === '') return false;
  return role === 'assistant' || answersInOrder(i > 0 ? (messages[i - 1]!.content as readonly ContentBlockParam[]) : [], content);
}

/** `content` opens with one result for each call in `calls`, in order, and has no other result. */
function answersInOrder(calls: readonly ContentBlockParam[], content: readonly ContentBlockParam[]): boolean {
  let answered = 0;
  for (const call of calls) {
    if (call.type !== 'tool_use') continue;
    const result = content[answered];
    if (result?.type !== 'tool_result' || result.tool_use_id !== call.id) return false;
    // Two calls with one id: normalizeHistory answers both with the first result.
    for (let j = 0; j < answered; j++) if ((content[j] as ToolResultBlockParam).tool_use_id === call.id) return false;
    answered++;
  }
  for (let j = answered; j < content.length; j++) if (content[j]!.type === 'tool_result') return false;
  return true;
}
