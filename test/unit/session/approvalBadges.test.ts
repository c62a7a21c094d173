import { describe, expect, it } from 'vitest';
import { timelineFromRecords } from '../../../main/session/timeline';

/*
 * After Keel restarts, the window's live calls are gone: how each approval card was answered can
 * only come from the transcript's approval records, so a tool card keeps its "Allowed once" badge.
 */

const at = '2026-01-01T00:00:00.000Z';
const use = (id: string, command: string) => ({ type: 'tool_use', id, name: 'bash', input: { command } });
const result = (id: string, content: string, isError = false) => ({ type: 'tool_result', tool_use_id: id, content, is_error: isError });
const records = [
  { type: 'task', event: 'start', taskId: 't1', text: 'clean up', at },
  { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'clean up' }] }, at },
  { type: 'message', message: { role: 'assistant', content: [use('a', 'rm -rf build'), use('b', 'npm test'), use('c', 'ls')] }, at },
  { type: 'task', event: 'approval', tool: 'bash', toolUseId: 'a', decision: 'allow_once', at },
  { type: 'task', event: 'approval', tool: 'bash', toolUseId: 'b', decision: 'deny', at },
  { type: 'task', event: 'approval', tool: 'bash', toolUseId: 'c', decision: 'something newer', at },
  {
    type: 'message',
    message: { role: 'user', content: [result('a', '[exit code: 0]'), result('b', 'The person denied this command.', true), result('c', 'x\n[exit code: 0]')] },
    at,
  },
  { type: 'task', event: 'end', taskId: 't1', outcome: 'done', at },
];

describe('approval badges from the transcript', () => {
  it('each answered card’s decision is on its tool call; an unknown one is left out', () => {
    const tools = timelineFromRecords(records).filter((item) => item.kind === 'tool');
    expect(tools.map((item) => [item.id, item.kind === 'tool' ? item.decision : null])).toEqual([
      ['a', 'allow_once'],
      ['b', 'deny'],
      ['c', undefined],
    ]);
  });
});
