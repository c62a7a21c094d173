import { describe, expect, it } from 'vitest';
import { AgentFeed } from '../../../renderer/terminal/agentFeed';
import { translator } from '../../../renderer/i18n/translate';
import stripAnsi from 'strip-ansi';

function feed() {
  let text = '';
  const sink = {
    write: (data: string) => void (text += data),
    get atLineStart() {
      return text === '' || text.endsWith('\n');
    },
  };
  const t = translator('en');
  return {
    feed: new AgentFeed(
      sink,
      () => t,
      () => {},
    ),
    shown: () => stripAnsi(text).replace(/\r\n/g, '\n'),
  };
}

const request = (id: string, toolUseId: string) => ({ id, toolUseId, tool: 'bash', command: 'rm -rf build', sessionRule: 'command:rm' });

describe('the Agent tab and approvals', () => {
  it('a command that waits for approval says it has not run; once allowed, that it runs', () => {
    const { feed: f, shown } = feed();
    f.apply({ type: 'tool_call', id: 'call-1', name: 'bash', input: { command: 'rm -rf build' } });
    f.apply({ type: 'approval_requested', request: request('card-1', 'call-1') });
    expect(shown()).toBe('$ rm -rf build\n… waiting for your approval: it has not run\n');
    f.apply({ type: 'approval_resolved', id: 'card-1', decision: 'allow_once' });
    f.apply({ type: 'tool_output', id: 'call-1', chunk: 'removed\r\n' });
    f.apply({ type: 'tool_result', id: 'call-1', name: 'bash', content: 'removed\n[exit code: 0]', isError: false });
    expect(shown()).toBe('$ rm -rf build\n… waiting for your approval: it has not run\napproved; running\nremoved\n✓ exit code 0\n\n');
  });

  it('a denied command never reads as run', () => {
    const { feed: f, shown } = feed();
    f.apply({ type: 'tool_call', id: 'call-1', name: 'bash', input: { command: 'rm -rf build' } });
    f.apply({ type: 'approval_requested', request: request('card-1', 'call-1') });
    f.apply({ type: 'approval_resolved', id: 'card-1', decision: 'deny' });
    f.apply({ type: 'tool_result', id: 'call-1', name: 'bash', content: '[denied by the person]', isError: true });
    expect(shown()).not.toContain('approved');
    expect(shown()).not.toContain('exit code');
    expect(shown()).toContain('denied by the person');
  });

  it('cards of other tools write nothing', () => {
    const { feed: f, shown } = feed();
    f.apply({ type: 'approval_requested', request: { ...request('card-2', 'call-9'), tool: 'write_file' } });
    expect(shown()).toBe('');
  });
});
