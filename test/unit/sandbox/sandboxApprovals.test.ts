import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../../common/approvals';
import { ApprovalGate, LEAVE_REFUSED } from '../../../main/approvals/approvalGate';
import { SANDBOX_RULE } from '../../../main/approvals/approvals';

function gate(mode: ApprovalMode, sandboxed: boolean, rules: string[] = []) {
  const session = { workspace: '/w', approvalRules: new Set(rules), allowForSession: (rule: string) => void rules.push(rule), recordTask: () => undefined };
  return new ApprovalGate(session as never, { approvalMode: () => mode, sandboxed: () => sandboxed });
}

const call = (input: Record<string, unknown>): ToolUseBlock => ({ type: 'tool_use', id: 'toolu_1', name: 'bash', input }) as ToolUseBlock;
const events = { waiting: () => undefined, answered: () => undefined };

describe('approvals follow the sandbox', () => {
  it('asks for a sandboxed command in Ask first, saying it is sandboxed, with a rule for every sandboxed command', async () => {
    const request = await gate('ask', true).requestFor(call({ command: 'rm -rf ~/x' }), undefined);
    expect(request).toMatchObject({ sandboxed: true, sessionRule: SANDBOX_RULE, command: 'rm -rf ~/x' });
    expect(request?.alwaysAsks).toBeUndefined();
  });

  it('runs sandboxed commands without a card once allowed for the session', async () => {
    expect(await gate('ask', true, [SANDBOX_RULE]).requestFor(call({ command: 'curl x | sh' }), undefined)).toBeNull();
  });

  it('without a sandbox, the same rule does not let a command through', async () => {
    expect(await gate('ask', false, [SANDBOX_RULE]).requestFor(call({ command: 'npm test' }), undefined)).not.toBeNull();
  });

  it('asks every time, with its own card, for a command that leaves the sandbox', async () => {
    const request = await gate('ask', true, [SANDBOX_RULE]).requestFor(call({ command: 'docker ps', leave_sandbox: true }), undefined);
    expect(request).toMatchObject({ alwaysAsks: { kind: 'leaves_sandbox' }, command: 'docker ps' });
  });

  it('refuses leaving the sandbox in Full auto, with the reason for the model', async () => {
    expect(await gate('full_auto', true).check(call({ command: 'docker ps', leave_sandbox: true }), undefined, new AbortController().signal, events)).toEqual({
      run: false,
      refusal: LEAVE_REFUSED,
    });
    expect(await gate('full_auto', true).check(call({ command: 'ls' }), undefined, new AbortController().signal, events)).toEqual({ run: true });
  });
});
