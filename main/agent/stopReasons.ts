import type { ContentBlockParam, StopReason, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ContextKeeper, RoomContext } from './compaction/contextKeeper';
import { CONTEXT_FULL_CONTINUE, MAX_TOKENS_CONTINUE, maxTokensMessage } from './modelTexts';
import type { Notify } from './notice';
import type { TaskEnding } from './taskRecords';

const MAX_TOKENS_CONTINUES = 3;
const MAX_PAUSE_CONTINUES = 10;

/** With max_tokens (or a full window) the last tool call may be cut off mid-input: it is answered, never run. */
export function cutOffCall(stopReason: StopReason | null, calls: readonly ToolUseBlock[]): ToolUseBlock | undefined {
  return stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded' ? calls.at(-1) : undefined;
}

/** Go on with `pending` as the next user message (`paused`: none is needed), or end the task. */
export type AfterStop = { kind: 'continue'; pending: ContentBlockParam[]; paused: boolean } | { kind: 'end'; end: TaskEnding };

/**
 * What an answer without tool calls means, by its stop reason, for one task: the loop goes on
 * where the model was cut off or paused, a bounded number of times in a row.
 */
export class StopReasons {
  private maxTokenContinues = 0;
  private pauseContinues = 0;

  constructor(
    private readonly context: ContextKeeper,
    private readonly room: RoomContext,
    private readonly notice: Notify,
    private readonly emitContext: () => void,
  ) {}

  /** null: the stop reason asks nothing; the task is judged as the model ending its turn. */
  async after(stopReason: StopReason | null): Promise<AfterStop | null> {
    // The service paused a long turn (server tools): it goes on from what it said, no message needed.
    if (stopReason === 'pause_turn' && ++this.pauseContinues <= MAX_PAUSE_CONTINUES) return { kind: 'continue', pending: [], paused: true };

    if (stopReason === 'model_context_window_exceeded') {
      // Like "prompt is too long": make room, then the model goes on where it stopped.
      await this.context.afterRefusal(this.room, '', this.context.requestTokens());
      this.emitContext();
      this.notice('max_tokens', CONTEXT_FULL_CONTINUE);
      return { kind: 'continue', pending: [{ type: 'text', text: CONTEXT_FULL_CONTINUE }], paused: false };
    }

    if (stopReason === 'max_tokens') {
      if (++this.maxTokenContinues > MAX_TOKENS_CONTINUES) {
        const message = maxTokensMessage(this.room.settings.maxTokens, MAX_TOKENS_CONTINUES + 1);
        return { kind: 'end', end: { outcome: 'error', message, errorCode: 'max_tokens' } };
      }
      this.notice('max_tokens', MAX_TOKENS_CONTINUE);
      return { kind: 'continue', pending: [{ type: 'text', text: MAX_TOKENS_CONTINUE }], paused: false };
    }
    return null;
  }
}
