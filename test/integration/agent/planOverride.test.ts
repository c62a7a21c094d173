import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlanSnapshot, SessionSummary } from '../../../common/contract';
import type { ChatItem } from '../../../common/chat';
import type { PlanItem } from '../../../common/plan/types';
import type { Result } from '../../../common/result';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { dispatchRequest } from '../../../main/api/dispatch';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { items, sendTask } from './scenario';

/*
 * Issue 16.1 through the real core: the model, having been shown the person's edit, sends a plan
 * that undoes part of it. Keel accepts it, and says so: a `plan_override` notice for the person
 * (kept in the transcript and in the restored chat) and the overrides on the stored version.
 */

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function request<T>(h: AgentHarness, name: string, input: unknown): Promise<T> {
  const result = (await dispatchRequest(h.core.handlers, name as never, input as never)) as Result<T>;
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** While it runs, the person adds a step on the board. */
function toolThatLetsThePersonAdd(getHarness: () => AgentHarness): AgentTool {
  return {
    name: 'slow',
    description: 'Takes a while.',
    inputSchema: z.object({}).passthrough(),
    async run() {
      const h = getHarness();
      const current = await request<PlanSnapshot>(h, 'plan.get', {});
      const added: PlanItem[] = [...current.items, { id: 'x', content: 'Update the changelog', status: 'pending' }];
      await request<PlanSnapshot>(h, 'plan.edit', { baseVersion: current.version, items: added });
      return { content: 'slow work done', isError: false };
    },
  };
}

describe('the agent undoing the person’s plan edit', () => {
  it('is accepted, and said: a plan_override notice with the dropped step, kept in the transcript and the chat history', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: items(['Read the code', 'in_progress'], ['Write the fix', 'pending']) })),
        reply(toolUse('slow', {})),
        // Shown the edit (a plan-update block), the model still sends its own two steps.
        reply(toolUse('todo', { items: items(['Read the code', 'completed'], ['Write the fix', 'in_progress']) })),
        reply(toolUse('todo', { items: items(['Read the code', 'completed'], ['Write the fix', 'completed']) })),
        reply(text('Done.')),
      ],
      { tools: [toolThatLetsThePersonAdd(() => harness!)] },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(finished.openSteps).toBe(0);
    expect(harness.server.errors).toEqual([]);

    const notices = harness.events.filter((e) => e.type === 'notice' && e.kind === 'plan_override');
    expect(notices).toHaveLength(1);
    const notice = notices[0] as Extract<(typeof notices)[number], { type: 'notice' }>;
    expect(notice.message).toBe('- the agent removed your step "Update the changelog"');
    expect(notice.overrides).toEqual([{ kind: 'dropped', item: { id: 'x', content: 'Update the changelog', status: 'pending' }, index: 2 }]);
    // The model was not told anything extra: the notice is for the person.
    expect(JSON.stringify(harness.server.requests.map((r) => r.body.messages))).not.toContain('removed your step');

    // The stored version carries it; the restored chat shows it with the same data.
    const plan = harness.core.currentSession!.plan;
    expect(plan.history.find((v) => v.overrides)?.source).toBe('agent');
    const history = await request<ChatItem[]>(harness, 'chat.history', {});
    const restored = history.find((item) => item.kind === 'notice' && item.notice === 'plan_override');
    expect(restored).toMatchObject({ overrides: notice.overrides });

    // The session list knows the plan's open steps now and at the end of the task.
    const sessions = await request<SessionSummary[]>(harness, 'session.list', {});
    expect(sessions[0]).toMatchObject({ lastOutcome: 'done', openSteps: 0, openAtEnd: 0 });
  });
});
