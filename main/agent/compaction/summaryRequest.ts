import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage } from '../messageTypes';
import { resultText } from './placeholder';
import { webSearchOutcome } from '../../../common/webSearch';

/** The side request's system prompt starts with this, so tests (and logs) can tell it apart. */
export const SUMMARY_SYSTEM_MARK = "You write the hand-over summary of a coding agent's conversation";

export const SUMMARY_SYSTEM = `${SUMMARY_SYSTEM_MARK} whose older part no longer fits the model's context window. An engineer (another instance of the agent) will continue the task from your summary and the most recent messages, without seeing what you summarise.`;

const INSTRUCTIONS = `Write the summary now, in plain text with short headed sections:
1. Goal: what the person asked for, in their words where it matters, and any later changes of direction.
2. Decisions: what was decided and why (approaches taken or rejected).
3. Files: every file read, created or changed (paths), and what matters about each.
4. State: what works, what fails, errors seen and whether they were fixed.
5. Next steps: what remained to do when the conversation was cut.
Leave out the todo list: Keel keeps the plan separately and gives it to the engineer as it stands. Keep it under 800 words; be concrete (paths, names, commands).`;

/** Characters of one tool input or result kept in the text given to the summariser. */
const BLOCK_CHARS = 1_500;

/**
 * The side request that asks the model for a summary of `older`: the conversation rendered as
 * text (so no tool pairing rule applies) and clipped to `budgetTokens`, keeping its start (the
 * task) and, mostly, its end (the latest state). Pure.
 */
export function summaryRequestMessages(older: readonly ChatMessage[], budgetTokens: number): { role: 'user'; content: string }[] {
  const transcript = clipMiddle(renderConversation(older), Math.max(1_000, budgetTokens * 4 - INSTRUCTIONS.length - 200));
  return [{ role: 'user', content: `<conversation>\n${transcript}\n</conversation>\n\n${INSTRUCTIONS}` }];
}

export function renderConversation(messages: readonly ChatMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const who = message.role === 'user' ? 'PERSON / KEEL' : 'AGENT';
    const lines = blocks.map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'tool_use':
          return `→ ${block.name} ${clipMiddle(JSON.stringify(block.input), BLOCK_CHARS)}`;
        case 'tool_result':
          return `← ${block.is_error ? 'error' : 'result'}: ${clipMiddle(resultText(block), BLOCK_CHARS)}`;
        case 'server_tool_use':
          return `→ ${block.name} ${clipMiddle(JSON.stringify(block.input), BLOCK_CHARS)}`;
        case 'web_search_tool_result': {
          const { results, errorCode } = webSearchOutcome(block.content);
          return `← ${errorCode ? `error: ${errorCode}` : `results: ${clipMiddle(results.map((r) => `${r.title} <${r.url}>`).join('; '), BLOCK_CHARS)}`}`;
        }
        default:
          return `[${block.type}]`;
      }
    });
    parts.push(`## ${who}\n${lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

/** Keeps a fifth of the budget from the start and the rest from the end, and says what was left out. */
export function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 5);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n[… ${text.length - maxChars} characters left out here to fit …]\n${text.slice(text.length - tail)}`;
}
