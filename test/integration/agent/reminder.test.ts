import { afterEach, describe, expect, it } from 'vitest';
import { noopTool, startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse, type ScriptedRequest, type Step } from '../../support/scriptedAnthropic';
import { items, lastBlocks, sendTask, taggedBlocks, toolResultsLead } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const openPlan = items(['Read the code', 'in_progress'], ['Write the fix', 'pending'], ['Run the tests', 'pending']);
const donePlan = items(['Read the code', 'completed'], ['Write the fix', 'completed'], ['Run the tests', 'completed']);

const todo = (plan: unknown[]): Step => reply(toolUse('todo', { items: plan }));
const noop = (): Step => reply(toolUse('noop', {}));

/** 1-based numbers of the requests whose last message carries a <reminder> block. */
function remindedRequests(requests: readonly ScriptedRequest[]): number[] {
  return requests.filter((r) => taggedBlocks(r, '<reminder>').length > 0).map((r) => r.index);
}

describe('the plan reminder', () => {
  it('comes after three rounds without a plan update, after the tool results, once, and again after three more', async () => {
    harness = await startAgentHarness(
      [
        todo(openPlan), // round 1: the plan is written
        noop(), // rounds 2-4: three stale rounds
        noop(),
        noop(),
        noop(), // rounds 5-7: three more
        noop(),
        noop(),
        todo(donePlan),
        reply(text('Finished.')),
      ],
      { tools: [noopTool] },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const requests = harness.server.requests;
    expect(requests).toHaveLength(9);

    // Request 5 answers the third stale round; request 8 the sixth. Not before, not in between.
    expect(remindedRequests(requests)).toEqual([5, 8]);

    for (const index of [5, 8]) {
      const request = requests[index - 1]!;
      const last = request.body.messages.at(-1)!;
      expect(last.role).toBe('user');
      const blocks = lastBlocks(request);
      // The tool_result first (the API requires it), the reminder after it, and only one reminder.
      expect(blocks[0]?.type).toBe('tool_result');
      expect(toolResultsLead(request)).toBe(true);
      const reminder = taggedBlocks(request, '<reminder>');
      expect(reminder).toHaveLength(1);
      expect(blocks.indexOf(reminder[0]!)).toBeGreaterThan(blocks.findLastIndex((b) => b.type === 'tool_result'));
      expect(reminder[0]!.text).toContain('You have not updated the plan for');
      expect(reminder[0]!.text).toContain('[>] #1 Read the code');
    }
    expect(harness.events.filter((e) => e.type === 'notice' && e.kind === 'reminder')).toHaveLength(2);
  });

  it('is not sent when a todo call refreshed the plan before the third stale round', async () => {
    harness = await startAgentHarness(
      [
        todo(openPlan),
        noop(),
        noop(),
        todo(items(['Read the code', 'completed'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending'])), // resets the count
        noop(),
        noop(),
        noop(),
        todo(donePlan),
        reply(text('Finished.')),
      ],
      { tools: [noopTool] },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    // Without the todo call in round 4 the reminder would have come with request 5.
    expect(remindedRequests(harness.server.requests)).toEqual([8]);
  });

  it('is not sent while every item of the plan is completed', async () => {
    harness = await startAgentHarness([todo(donePlan), noop(), noop(), noop(), noop(), noop(), noop(), reply(text('Finished.'))], {
      tools: [noopTool],
    });
    const finished = await sendTask(harness, 'tidy up');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(harness.server.requests).toHaveLength(8);
    expect(remindedRequests(harness.server.requests)).toEqual([]);
    expect(harness.events.some((e) => e.type === 'notice' && e.kind === 'reminder')).toBe(false);
  });
});
