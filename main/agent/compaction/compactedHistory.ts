import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { estimateTokens } from '../../../common/contextWindow';
import { renderPlan } from '../../../common/plan/render';
import type { PlanItem } from '../../../common/plan/types';
import type { ChatMessage } from '../messageTypes';

/**
 * Where stage 2 cuts: the index of the first message kept, always the model's turn (so the kept
 * rounds never start with tool results whose calls were cut away). The recent rounds kept fit in
 * `keepTokens`, but the last round is always kept. 0 when there is nothing older to summarise. Pure.
 */
export function chooseSummaryBoundary(messages: readonly ChatMessage[], keepTokens: number): number {
  let kept = 0;
  let boundary = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    kept += estimateTokens(messages[i]!.content);
    if (messages[i]!.role !== 'assistant') continue;
    if (boundary !== 0 && kept > keepTokens) break;
    boundary = i;
  }
  return boundary;
}

export interface CompactedHeadInput {
  summary: string;
  /** The person's message that started the task. */
  task: string | null;
  /** From the plan store, never from the summary. */
  plan: readonly PlanItem[];
  summarizedMessages: number;
}

/**
 * The first message of a compacted history: the summary, the task, and the current plan. It is
 * a user message of text only, followed by the model's turn, so tool results still lead every
 * user message that answers calls. Pure.
 */
export function compactedHead(input: CompactedHeadInput): ChatMessage {
  const content: ContentBlockParam[] = [
    {
      type: 'text',
      text:
        `<conversation-summary>\nThe conversation grew too long for the context window, so its older part (${input.summarizedMessages} messages) was replaced by this summary. ` +
        `Keel's transcript still holds all of it.\n\n${input.summary.trim()}\n</conversation-summary>`,
    },
  ];
  if (input.task) content.push({ type: 'text', text: `<task>The person's message that started this task:\n${clipTask(input.task)}\n</task>` });
  content.push({
    type: 'text',
    text: `<plan-status>The plan as Keel holds it now (this, not the summary, is the current plan):\n${renderPlan(input.plan)}\n</plan-status>\nContinue from where the messages below leave off.`,
  });
  return { role: 'user', content };
}

/** Characters of the task repeated in the head: a huge pasted message must not fill the window again. */
const TASK_CHARS = 8_000;

function clipTask(task: string): string {
  return task.length <= TASK_CHARS
    ? task
    : `${task.slice(0, TASK_CHARS)}\n[… the message goes on for ${task.length - TASK_CHARS} more characters; the transcript keeps it whole]`;
}

/** The compacted history: the head, then the kept recent rounds. */
export function compactedHistory(head: ChatMessage, messages: readonly ChatMessage[], keptFrom: number): ChatMessage[] {
  return [head, ...messages.slice(keptFrom)];
}
