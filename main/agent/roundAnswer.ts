import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { WorkspaceSession } from '../session/workspaceSession';

/** Keeps the model's answer in the history (blank text blocks dropped): its tool calls, in order. */
export function keepAnswer(session: WorkspaceSession, response: Message): ToolUseBlock[] {
  const content = response.content.filter((block) => !(block.type === 'text' && block.text.trim() === ''));
  if (content.length > 0) session.appendMessage({ role: 'assistant', content: content as ContentBlockParam[] });
  return content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}
