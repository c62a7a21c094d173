import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../common/approvals';
import type { HelperInfo } from '../../../common/helpers';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { hang, reply, text, textOf, toolResults, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';

// The person steers helpers (outside git, so one runs at a time): the main task's Stop stops its
// helpers, a quiet helper is stopped as stalled, an edit of a helper's plan reaches that helper
// only, and a helper's approval card says who asks.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const resultTexts = (request: ScriptedRequest): string[] =>
  toolResults(request).map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));
const oneStep = [{ id: 'a', content: 'Write a.txt', status: 'pending' }];

function recordHelpers(h: AgentHarness): HelperInfo[] {
  const changed: HelperInfo[] = [];
  h.core.onEvent((event) => {
    if (event.channel === 'helper.changed') changed.push(event.payload);
  });
  return changed;
}

describe('steering helpers', { timeout: 60_000 }, () => {
  it("the main task's Stop stops its helper: the task is cancelled, the helper stopped, its step pending again", async () => {
    harness = await startAgentHarness(
      [reply(toolUse('todo', { items: oneStep })), reply(toolUse('delegate', { item: 'a', instructions: 'Create a.txt slowly.' }))],
      {
        tools: workspaceTools(),
        server: { agents: [{ name: 'A', firstMessage: 'Create a.txt slowly.', script: [hang()] }] },
      },
    );
    const changed = recordHelpers(harness);
    const finishing = sendTask(harness, 'write a.txt');
    await waitFor(() => harness!.server.agent('A').requests.length === 1, 'the helper asked the model');
    const stopped = await harness.core.handlers['task.stop']({});
    expect(stopped.ok && stopped.value.stopped).toBe(true);
    expect((await finishing).outcome).toBe('cancelled');
    const info = changed.at(-1)!;
    expect([info.id, info.state, info.reasonCode]).toEqual(['helper-1', 'stopped', 'main_stopped']);
    expect(harness.core.currentSession!.plan.items[0]).toEqual({ id: 'a', content: 'Write a.txt', status: 'pending' });
    expect(harness.server.errors).toEqual([]);
  });

  it('a helper with no progress for helpers.stallSeconds fails as stalled, and the main agent is told', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: oneStep })),
        reply(toolUse('delegate', { item: 'a', instructions: 'Create a.txt, but hang.' })),
        reply(toolUse('todo', { items: [{ ...oneStep[0], status: 'completed' }] })),
        reply(text('The helper hung; I will do it later.')),
      ],
      {
        tools: workspaceTools(),
        settingsFile: { helpers: { stallSeconds: 1 } },
        server: { agents: [{ name: 'A', firstMessage: 'Create a.txt, but hang.', script: [hang()] }] },
      },
    );
    const finished = await sendTask(harness, 'write a.txt');
    expect(finished.outcome).toBe('done');
    const [result] = resultTexts(harness.server.requests[3]!);
    expect(result).toContain('helper-1 failed on step #a');
    expect(result).toContain('No progress for 1 s');
    const list = await harness.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.state, h.reasonCode])).toEqual([['failed', 'stalled']]);
  });

  it("the person's edit of a helper's plan goes through the validator and reaches that helper only, before its next request", async () => {
    let edited = false;
    harness = await startAgentHarness(
      [reply(toolUse('todo', { items: oneStep })), reply(toolUse('delegate', { item: 'a', instructions: 'Create a.txt in two moves.' })), reply(text('Done.'))],
      {
        tools: workspaceTools(),
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Create a.txt in two moves.',
              script: [
                reply(
                  toolUse('todo', {
                    items: [
                      { id: 'draft', content: 'Draft the text', status: 'in_progress' },
                      { id: 'save', content: 'Save a.txt', status: 'pending' },
                    ],
                  }),
                ),
                // Holds its answer until the person has edited its plan.
                async () => {
                  await waitFor(() => edited, 'the person edited the helper plan');
                  return reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' }));
                },
                reply(
                  toolUse('todo', {
                    items: [
                      { id: 'draft', content: 'Draft the text', status: 'completed' },
                      { id: 'save', content: 'Save a.txt as UTF-8', status: 'completed' },
                    ],
                  }),
                ),
                reply(text('Saved a.txt.')),
              ],
            },
          ],
        },
      },
    );
    const changed = recordHelpers(harness);
    const finishing = sendTask(harness, 'write a.txt');
    const withPlan = await waitFor(() => changed.find((info) => info.plan.length === 2), 'the helper wrote its plan');
    expect(withPlan.plan.map((item) => item.owner)).toEqual(['helper-1', 'helper-1']);
    const items = withPlan.plan.map((item) => (item.id === 'save' ? { ...item, content: 'Save a.txt as UTF-8' } : item));
    // The validator refuses two steps in progress for the helper, as it would on the main board.
    const invalid = await harness.core.handlers['helper.editPlan']({
      id: 'helper-1',
      baseVersion: withPlan.planVersion,
      items: items.map((item) => ({ ...item, status: 'in_progress' })),
    });
    expect(!invalid.ok && invalid.error.code).toBe('plan_invalid');
    const accepted = await harness.core.handlers['helper.editPlan']({ id: 'helper-1', baseVersion: withPlan.planVersion, items });
    expect(accepted.ok && accepted.value.plan.map((item) => item.content)).toEqual(['Draft the text', 'Save a.txt as UTF-8']);
    const stale = await harness.core.handlers['helper.editPlan']({ id: 'helper-1', baseVersion: withPlan.planVersion, items });
    expect(!stale.ok && stale.error.code).toBe('plan_conflict');
    edited = true;
    expect((await finishing).outcome).toBe('done');
    const { server } = harness;
    expect(server.errors).toEqual([]);
    const next = server.agent('A').requests[2]!;
    expect(textOf(next.body.messages.at(-1))).toContain('<plan-update source="user">');
    expect(textOf(next.body.messages.at(-1))).toContain('Save a.txt as UTF-8');
    const mainRequests = server.requests.filter((r) => r.agent === undefined);
    expect(mainRequests.every((r) => !JSON.stringify(r.body.messages).includes('Save a.txt as UTF-8'))).toBe(true);
  });

  it("a helper's approval card says which helper asks; allow for the session covers the next helper too", async () => {
    harness = await startAgentHarness(
      [
        reply(
          toolUse('todo', {
            items: [
              { id: 'a', content: 'Write a.txt', status: 'pending' },
              { id: 'b', content: 'Write b.txt', status: 'pending' },
            ],
          }),
        ),
        reply(toolUse('delegate', { item: 'a', instructions: 'Create a.txt now.' }), toolUse('delegate', { item: 'b', instructions: 'Create b.txt now.' })),
        reply(text('Done.')),
      ],
      {
        tools: workspaceTools(),
        approvals: 'ask',
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Create a.txt now.',
              script: [reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' })), reply(text('Wrote a.txt.'))],
            },
            {
              name: 'B',
              firstMessage: 'Create b.txt now.',
              script: [reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' })), reply(text('Wrote b.txt.'))],
            },
          ],
        },
      },
    );
    const changed = recordHelpers(harness);
    const finishing = sendTask(harness, 'write both');
    await waitFor(() => harness!.core.currentAgent!.approvals.pending.length > 0, 'the helper asked');
    const status = await harness.core.handlers['agent.status']({});
    const card = (status.ok ? status.value.pendingApprovals[0] : undefined) as ApprovalRequest;
    expect(card.helper).toBe('helper-1');
    expect(changed.some((info) => info.state === 'waiting_approval' && info.tool === 'write_file')).toBe(true);
    const answered = await harness.core.handlers['approval.respond']({ id: card.id, answer: { decision: 'allow_session' } });
    expect(answered.ok && answered.value.answered).toBe(true);
    expect((await finishing).outcome).toBe('done');
    const rules = await harness.core.handlers['approval.rules']({});
    expect(rules.ok && rules.value.rules).toContain('file_change');
    expect(resultTexts(harness.server.requests.at(-1)!).map((r) => r.split('\n')[0])).toEqual([
      'helper-1 finished step #a "Write a.txt".',
      'helper-2 finished step #b "Write b.txt".',
    ]);
  });
});
