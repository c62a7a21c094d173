import { afterEach, describe, expect, it } from 'vitest';
import { renderPlan } from '../../../common/plan/render';
import { validatePlan } from '../../../common/plan/validate';
import type { PlanItem } from '../../../common/plan/types';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { items, sendTask } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const firstPlan = items(['Read the code', 'in_progress'], ['Write the fix', 'pending'], ['Run the tests', 'pending']);
const finishedPlan = items(['Read the code', 'completed'], ['Write the fix', 'completed'], ['Run the tests', 'completed']);

const invalidPlans: { name: string; proposal: { content: string; status: string }[]; says: RegExp }[] = [
  {
    name: 'two items in progress',
    proposal: items(['Read the code', 'in_progress'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending']),
    says: /Only one item can be in_progress/,
  },
  {
    name: 'thirteen items',
    proposal: Array.from({ length: 13 }, (_, i) => ({ content: `Step ${i + 1}`, status: 'pending' })),
    says: /13 items; at most 12/,
  },
  {
    name: 'an unknown status',
    proposal: items(['Read the code', 'completed'], ['Write the fix', 'done'], ['Run the tests', 'pending']),
    says: /status "done" is not one of pending, in_progress, completed/,
  },
];

describe('the model sends an invalid plan', () => {
  it.each(invalidPlans)(
    'with $name: the model is told what is wrong, the plan stays as it was, and a corrected plan finishes the task',
    async ({ proposal, says }) => {
      let planBeforeInvalid: { version: number; items: PlanItem[] } | undefined;
      let planAfterInvalid: { version: number; items: PlanItem[] } | undefined;
      const snapshotPlan = () => {
        const plan = harness!.core.currentSession!.plan;
        return { version: plan.version, items: structuredClone(plan.items) };
      };
      harness = await startAgentHarness([
        reply(text('Planning.'), toolUse('todo', { items: firstPlan })),
        () => {
          planBeforeInvalid = snapshotPlan();
          return reply(toolUse('todo', { items: proposal }));
        },
        () => {
          planAfterInvalid = snapshotPlan();
          return reply(text('Let me fix the list.'), toolUse('todo', { items: finishedPlan }));
        },
        reply(text('All three steps are done.')),
      ]);

      const finished = await sendTask(harness, 'fix the bug');
      expect(finished.outcome).toBe('done');
      expect(harness.server.errors).toEqual([]);
      expect(harness.server.requests).toHaveLength(4);

      // The refusal the model read: is_error, worded by the one validator, with the plan as it still is.
      const [refusal] = toolResults(harness.server.requests[2] as ScriptedRequest);
      expect(refusal?.is_error).toBe(true);
      const expected = validatePlan(proposal, planBeforeInvalid!.items);
      expect(expected.ok).toBe(false);
      const message = toolResultText(refusal!);
      expect(message).toContain(expected.ok ? '' : expected.error.message);
      expect(message).toMatch(says);
      expect(message).toContain(`The plan is still:\n${renderPlan(planBeforeInvalid!.items)}`);

      // Nothing changed: same version, same items.
      expect(planAfterInvalid).toEqual(planBeforeInvalid);
      const refusedEvent = harness.events.find((e) => e.type === 'tool_result' && e.isError);
      expect(refusedEvent).toMatchObject({ name: 'todo', isError: true });

      // The corrected plan went through and was read back.
      const [accepted] = toolResults(harness.server.requests[3] as ScriptedRequest);
      expect(accepted?.is_error).toBeUndefined();
      expect(toolResultText(accepted!)).toBe('[x] #1 Read the code\n[x] #2 Write the fix\n[x] #3 Run the tests\n\n(3/3 completed)');
      const plan = harness.core.currentSession!.plan;
      expect(plan.history.map((v) => v.version)).toEqual([1, 2]);
      expect(plan.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
    },
  );
});
