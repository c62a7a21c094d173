import type { CompactionInfo } from '../../common/contextWindow';

// What the loop says in its own words: to the model (tool results, nudges) and, when a task ends
// early, to the person. The plan's texts are common/plan/rules.ts's and planMessages.ts's.

export const CANCELLED_RESULT = 'Cancelled: the person stopped the task before this tool call finished. Anything it started was killed.';

export const MAX_TOKENS_CONTINUE = 'Your answer was cut off by the max_tokens limit. Continue exactly where it stopped.';

export const CONTEXT_FULL_CONTINUE = 'Your answer was cut off because the context window was full. Room was made; continue exactly where it stopped.';

export const REFUSED_MESSAGE = 'The model declined to go on with this request (stop reason: refusal).';

export const STOPPED_MESSAGE = 'Stopped by the person.';

/** The answer to a call whose input max_tokens cut off: it was never run. */
export function cutOffCallResult(tool: string): string {
  return `This ${tool} call was cut off by the max_tokens limit before its input was complete, so it was not run. Send it again with a smaller input (for a large file, write it in parts).`;
}

/** The answer to a call the person denied on its approval card. */
export function deniedResult(tool: string, reason: string | undefined): string {
  return `The person denied this ${tool} call; it was not run.${reason ? ` Their reason: ${reason}` : ''} Do not retry it as it was; adjust your approach${reason ? ' to their reason' : ''} or ask them.`;
}

/** The task's end when every answer in a row hit max_tokens. */
export function maxTokensMessage(maxTokens: number, times: number): string {
  return `The answer hit the max_tokens limit (${maxTokens}) ${times} times in a row. Raise max tokens in the settings.`;
}

/** The task's end when the completion gate gave up on an unfinished plan. */
export function unfinishedPlanMessage(turns: number, open: number): string {
  return `Stopped with an unfinished plan: the model ended its turn ${turns} times with ${open} item(s) still open.`;
}

/** The task's end when the service refused the size twice: what happened and what to do. */
export function tooLongMessage(detail: string, window: number, room: readonly CompactionInfo[]): string {
  const done = room.some((info) => info.stage === 'summarized')
    ? 'Keel set the conversation aside (the plan and the transcript are kept) so the next message has room'
    : room.length > 0
      ? 'Keel cleared every tool result so the next message has room'
      : 'Nothing more could be cleared';
  return `The conversation is too long for the model even after making room (${detail.replace(/^The API rejected the request \(400\): /, '')}). ${done}: send your message again, or start a new session. If the model's window is smaller than ${window.toLocaleString('en')} tokens, set its real size as the context window in Settings (contextWindow in the settings file, or KEEL_CONTEXT_WINDOW).`;
}
