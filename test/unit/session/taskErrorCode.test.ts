import { describe, expect, it } from 'vitest';
import { applyAgentEvent } from '../../../common/chatReducer';
import { timelineFromRecords } from '../../../main/session/timeline';

const at = '2026-01-01T00:00:00.000Z';

describe('why a task ended in an error reaches the chat as a code, live and after a reload', () => {
  it('live: the outcome keeps the code of task_finished', () => {
    const items = applyAgentEvent(
      [],
      { type: 'task_finished', taskId: 't1', outcome: 'error', message: 'The API key was refused (401).', errorCode: 'auth' },
      () => 'x',
    );
    expect(items).toEqual([{ kind: 'outcome', id: 'end-t1', outcome: 'error', message: 'The API key was refused (401).', errorCode: 'auth' }]);
  });

  it('rebuilt from the transcript: the same outcome, code and all', () => {
    const items = timelineFromRecords([
      { type: 'task', event: 'start', taskId: 't1', text: 'go', at },
      { type: 'task', event: 'end', taskId: 't1', outcome: 'error', message: 'Cut too often.', errorCode: 'max_tokens', at },
    ]);
    expect(items.at(-1)).toEqual({ kind: 'outcome', id: 'end-t1', outcome: 'error', message: 'Cut too often.', errorCode: 'max_tokens' });
  });

  it('a code this Keel does not know (from a newer one) reads as none, and the outcome is kept', () => {
    const items = timelineFromRecords([{ type: 'task', event: 'end', taskId: 't1', outcome: 'error', message: 'Strange.', errorCode: 'from_the_future', at }]);
    expect(items).toEqual([{ kind: 'outcome', id: 'end-t1', outcome: 'error', message: 'Strange.' }]);
  });
});
