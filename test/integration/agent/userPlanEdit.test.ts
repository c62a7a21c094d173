import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlanSnapshot } from '../../../common/contract';
import type { PlanItem } from '../../../common/plan/types';
import type { Result } from '../../../common/result';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { dispatchRequest } from '../../../main/api/dispatch';
import { noopTool, startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { items, lastBlocks, sendTask, taggedBlocks, toolResultsLead } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const firstPlan = items(['Read the code', 'in_progress'], ['Write the fix', 'pending'], ['Run the tests', 'pending']);

/**
 * The person edits the plan on the board: reads it, changes the list, and sends it with the
 * version it was made against, through the same request the board sends.
 */
async function personEdits(h: AgentHarness, change: (items: PlanItem[]) => PlanItem[]): Promise<PlanSnapshot> {
  const current = await dispatchRequest(h.core.handlers, 'plan.get', {});
  if (!current.ok) throw new Error(current.error.message);
  const snapshot = current.value as PlanSnapshot;
  const edited = (await dispatchRequest(h.core.handlers, 'plan.edit', {
    baseVersion: snapshot.version,
    items: change(structuredClone(snapshot.items)),
  })) as Result<PlanSnapshot>;
  if (!edited.ok) throw new Error(`plan.edit refused: ${edited.error.message}`);
  return edited.value;
}

/** The person rewords step 2 and adds a step at the end. */
const rewordAndAdd = (list: PlanItem[]): PlanItem[] => [
  ...list.map((item) => (item.content === 'Write the fix' ? { ...item, content: 'Write the fix and a regression test' } : item)),
  { id: 'new', content: 'Update the changelog', status: 'pending' },
];

/** A tool that, while it runs, lets the person edit the plan (as if they did it on the board meanwhile). */
function slowToolWithEdit(edit: () => Promise<unknown>): AgentTool {
  return {
    name: 'slow',
    description: 'Takes a while.',
    inputSchema: z.object({}).passthrough(),
    async run() {
      await edit();
      return { content: 'slow work done', isError: false };
    },
  };
}

function planUpdateBlock(request: ScriptedRequest): string {
  const blocks = taggedBlocks(request, '<plan-update source="user">');
  expect(blocks).toHaveLength(1);
  return blocks[0]!.text;
}

describe("the person's plan edit mid-task", () => {
  it('reaches the model before its next request as a plan-update with the diff and the plan as it now stands, after the tool results', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: firstPlan })),
        reply(text('Working on it.'), toolUse('slow', {})),
        reply(
          toolUse('todo', {
            items: items(
              ['Read the code', 'completed'],
              ['Write the fix and a regression test', 'in_progress'],
              ['Run the tests', 'pending'],
              ['Update the changelog', 'pending'],
            ),
          }),
        ),
        reply(
          toolUse('todo', {
            items: items(
              ['Read the code', 'completed'],
              ['Write the fix and a regression test', 'completed'],
              ['Run the tests', 'completed'],
              ['Update the changelog', 'completed'],
            ),
          }),
        ),
        reply(text('Done, changelog included.')),
      ],
      { tools: [slowToolWithEdit(() => personEdits(harness!, rewordAndAdd))] },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    const afterEdit = harness.server.requests[2]!;
    expect(lastBlocks(afterEdit)[0]?.type).toBe('tool_result');
    expect(toolResultsLead(afterEdit)).toBe(true);
    const update = planUpdateBlock(afterEdit);
    expect(update).toContain('- reworded "Write the fix" to "Write the fix and a regression test"');
    expect(update).toContain('- added "Update the changelog" (pending) at position 4');
    expect(update).toContain(
      '[>] #1 Read the code\n[ ] #2 Write the fix and a regression test\n[ ] #3 Run the tests\n[ ] #new Update the changelog\n\n(0/4 completed)',
    );
    expect(harness.events.some((e) => e.type === 'notice' && e.kind === 'plan_update')).toBe(true);

    // Told once: the next request does not repeat it, and the model's todo based on it went through.
    expect(taggedBlocks(harness.server.requests[3]!, '<plan-update')).toEqual([]);
    const [accepted] = toolResults(harness.server.requests[3]!);
    expect(accepted?.is_error).toBeUndefined();
    const plan = harness.core.currentSession!.plan;
    expect(plan.history.map((v) => v.source)).toEqual(['agent', 'user', 'agent', 'agent']);
  });

  it('refuses a todo call the model made on the plan before the edit, showing the edit and the plan, keeping the edit', async () => {
    let editedTo: PlanSnapshot | undefined;
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: firstPlan })),
      // While the model is answering, the person edits; the model's answer is still based on version 1.
      async () => {
        editedTo = await personEdits(harness!, rewordAndAdd);
        return reply(
          text('Step 1 is done.'),
          toolUse('todo', { items: items(['Read the code', 'completed'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending']) }),
        );
      },
      reply(
        toolUse('todo', {
          items: items(
            ['Read the code', 'completed'],
            ['Write the fix and a regression test', 'in_progress'],
            ['Run the tests', 'pending'],
            ['Update the changelog', 'pending'],
          ),
        }),
      ),
      reply(
        toolUse('todo', {
          items: items(
            ['Read the code', 'completed'],
            ['Write the fix and a regression test', 'completed'],
            ['Run the tests', 'completed'],
            ['Update the changelog', 'completed'],
          ),
        }),
      ),
      reply(text('Done.')),
    ]);
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(editedTo?.source).toBe('user');

    const [refusal] = toolResults(harness.server.requests[2]!);
    expect(refusal?.is_error).toBe(true);
    const said = toolResultText(refusal!);
    expect(said).toContain('the person edited the plan');
    expect(said).toContain('- reworded "Write the fix" to "Write the fix and a regression test"');
    expect(said).toContain('- added "Update the changelog" (pending) at position 4');
    expect(said).toContain('[>] #1 Read the code\n[ ] #2 Write the fix and a regression test\n[ ] #3 Run the tests\n[ ] #new Update the changelog');

    const plan = harness.core.currentSession!.plan;
    // The refused call stored nothing: version 2 is the person's, version 3 the model's next, accepted call.
    expect(plan.history.map((v) => v.source)).toEqual(['agent', 'user', 'agent', 'agent']);
    expect(plan.getVersion(2)?.items.map((i) => i.content)).toEqual(editedTo!.items.map((i) => i.content));
    expect(plan.getVersion(3)?.items.map((i) => i.content)).toContain('Update the changelog');
    const [accepted] = toolResults(harness.server.requests[3]!);
    expect(accepted?.is_error).toBeUndefined();
  });

  it('is shown as a plan-update even in the round the reminder would be due, and counts as the plan update', async () => {
    let rounds = 0;
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: firstPlan })),
        reply(toolUse('noop', {})),
        reply(toolUse('noop', {})),
        reply(toolUse('slow', {})), // the third stale round: the person edits while it runs
        reply(toolUse('noop', {})),
        reply(
          toolUse('todo', {
            items: items(
              ['Read the code', 'completed'],
              ['Write the fix and a regression test', 'completed'],
              ['Run the tests', 'completed'],
              ['Update the changelog', 'completed'],
            ),
          }),
        ),
        reply(text('Done.')),
      ],
      {
        tools: [
          noopTool,
          slowToolWithEdit(() => {
            rounds++;
            return personEdits(harness!, rewordAndAdd);
          }),
        ],
      },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(rounds).toBe(1);

    const afterEdit = harness.server.requests[4]!;
    expect(toolResultsLead(afterEdit)).toBe(true);
    const update = planUpdateBlock(afterEdit);
    expect(update).toContain('- reworded "Write the fix" to "Write the fix and a regression test"');
    // Being shown the person's edit is a plan update: no reminder with it, nor in the round after.
    expect(taggedBlocks(afterEdit, '<reminder>')).toEqual([]);
    expect(taggedBlocks(harness.server.requests[5]!, '<reminder>')).toEqual([]);
  });

  it('made between tasks, is shown to the model with the next task', async () => {
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: firstPlan })),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
      reply(text('I see your change; continuing.')),
    ]);
    expect((await sendTask(harness, 'fix the bug')).outcome).toBe('stopped_unfinished');
    await personEdits(harness, rewordAndAdd);
    await sendTask(harness, 'continue');
    expect(harness.server.errors).toEqual([]);

    const next = harness.server.requests[4]!;
    expect(lastBlocks(next)[0]).toEqual({ type: 'text', text: 'continue' });
    const update = planUpdateBlock(next);
    expect(update).toContain('- reworded "Write the fix" to "Write the fix and a regression test"');
    expect(update).toContain('- added "Update the changelog" (pending) at position 4');
  });

  it('made against an old version is refused as a conflict and the plan stays as it is', async () => {
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: firstPlan })),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
    ]);
    await sendTask(harness, 'fix the bug');
    const stale = await dispatchRequest(harness.core.handlers, 'plan.edit', { baseVersion: 0, items: [{ content: 'Something else' }] });
    expect(stale.ok).toBe(false);
    expect(!stale.ok && stale.error.code).toBe('plan_conflict');
    expect(!stale.ok && stale.error.message).toMatch(/changed while you were editing/);
    expect(harness.core.currentSession!.plan.items.map((i) => i.content)).toEqual(['Read the code', 'Write the fix', 'Run the tests']);
  });
});
