import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { WorkspaceSession } from '../session/workspaceSession';

/**
 * Keeps the model's answer in the history (blank text blocks dropped): its tool calls, in order.
 * A tool call is kept as a plain copy of its fields: the SDK builds it with a hidden buffer and a
 * redefined `input`, an object V8 reads slower, and every later request serialises it again.
 */
export function keepAnswer(session: WorkspaceSession, response: Message): ToolUseBlock[] {
  const content = response.content
    .filter((block) => !(block.type === 'text' && block.text.trim() === ''))
    .map((block) => (block.type === 'tool_use' ? { ...block } : block));
  if (content.length > 0) session.appendMessage({ role: 'assistant', content: content as ContentBlockParam[] });
  return content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}
