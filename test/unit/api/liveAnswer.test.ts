import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../common/chat';
import { LiveAnswerTracker } from '../../../main/api/liveAnswer';

const asked: ChatItem[] = [{ kind: 'user', id: 'task-1', text: 'go' }];
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheCreationTokens: 0 };

describe('the answer streaming now, for a window that loads', () => {
  it('numbers every event and lays the unrecorded answer below the history', () => {
    const live = new LiveAnswerTracker();
    expect(live.observe({ type: 'task_started', taskId: '1', text: 'go' })).toBe(1);
    live.observe({ type: 'thinking', delta: 'Hm.' });
    live.observe({ type: 'state', state: 'thinking' });
    expect(live.observe({ type: 'text', delta: 'Half an ' })).toBe(4);
    live.observe({ type: 'text', delta: 'answer' });
    expect(live.seq).toBe(5);
    expect(live.withStreamed(asked)).toEqual([
      ...asked,
      { kind: 'thinking', id: 'streaming-1', text: 'Hm.' },
      { kind: 'assistant', id: 'streaming-2', text: 'Half an answer', streaming: true },
    ]);
  });

  it('drops what a retried stream voided, and what the transcript keeps once the round ends', () => {
    const live = new LiveAnswerTracker();
    live.observe({ type: 'text', delta: 'Cut off' });
    live.observe({ type: 'stream_retry', attempt: 1, reason: 'overloaded' });
    live.observe({ type: 'text', delta: 'Again' });
    expect(live.withStreamed(asked)).toEqual([...asked, { kind: 'assistant', id: 'streaming-2', text: 'Again', streaming: true }]);
    live.observe({ type: 'usage', round: usage, session: usage });
    expect(live.withStreamed(asked)).toEqual(asked);
    live.observe({ type: 'text', delta: 'Next round' });
    live.observe({ type: 'task_finished', taskId: '1', outcome: 'cancelled' });
    expect(live.withStreamed(asked)).toEqual(asked);
    expect(live.seq).toBe(6);
  });
});
