import { afterEach, describe, expect, it } from 'vitest';
import type { PlanItem } from '../../../common/plan/types';
import { WorkspaceSession } from '../../../main/session/workspaceSession';
import { noopTool, startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, textOf, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { items, lastBlocks, sendTask } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const openPlan = items(['Read the code', 'completed'], ['Write the fix', 'in_progress'], ['Run the tests', 'pending']);
const donePlan = items(['Read the code', 'completed'], ['Write the fix', 'completed'], ['Run the tests', 'completed']);

const lastText = (request: ScriptedRequest) => textOf(request.body.messages.at(-1));

describe('the completion gate', () => {
  it('asks the model to go on, listing exactly the unfinished items, when it stops with the plan open', async () => {
    harness = await startAgentHarness([
      reply(text('Planning.'), toolUse('todo', { items: openPlan })),
      reply(text('I think that is it.')),
      reply(toolUse('todo', { items: donePlan })),
      reply(text('Now it is really done.')),
    ]);
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(harness.server.requests).toHaveLength(4);

    const nudge = harness.server.requests[2]!;
    expect(nudge.body.messages.at(-1)?.role).toBe('user');
    const message = lastText(nudge);
    expect(message).toContain('2 plan items are still open');
    const listed = message.split('\n').filter((line) => line.startsWith('- ['));
    expect(listed).toEqual(['- [>] #2 Write the fix', '- [ ] #3 Run the tests']);
    expect(message).not.toContain('Read the code');
    expect(harness.events.filter((e) => e.type === 'notice' && e.kind === 'gate')).toHaveLength(1);
  });

  it('stops the task as "stopped with an unfinished plan" after two nudges in a row, naming the open items, without looping', async () => {
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: openPlan })),
      reply(text('Done, I believe.')),
      reply(text('Really done.')),
      reply(text('Nothing more to do.')),
    ]);
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('stopped_unfinished');
    expect(finished.message).toMatch(/unfinished plan/);
    expect(finished.unfinished?.map((i: PlanItem) => [i.content, i.status])).toEqual([
      ['Write the fix', 'in_progress'],
      ['Run the tests', 'pending'],
    ]);
    // One request to plan, then the end of turn, two nudges: four in all, and no more.
    expect(harness.server.requests).toHaveLength(4);
    expect(harness.server.errors).toEqual([]);
    expect(harness.server.remaining).toBe(0);
    expect(harness.events.filter((e) => e.type === 'notice' && e.kind === 'gate')).toHaveLength(2);
    expect(harness.events.filter((e) => e.type === 'state').at(-1)).toEqual({ type: 'state', state: 'stopped_unfinished' });
    // The plan is left as it was for the person to see.
    expect(harness.core.currentSession!.plan.items.map((i) => i.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('counts only nudges in a row: going back to work starts the count again', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: openPlan })),
        reply(text('Done?')), // nudge 1
        reply(toolUse('noop', {})), // back to work
        reply(text('Done now?')), // nudge 1 again
        reply(text('Surely done.')), // nudge 2
        reply(text('Stopping here.')), // stop
      ],
      { tools: [noopTool] },
    );
    const finished = await sendTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('stopped_unfinished');
    expect(harness.server.requests).toHaveLength(6);
    expect(harness.server.errors).toEqual([]);
    expect(harness.events.filter((e) => e.type === 'notice' && e.kind === 'gate')).toHaveLength(3);
  });

  it('answers a question in a new task without the gate while an earlier task left its plan unfinished, telling the model of that plan', async () => {
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: openPlan })),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
      reply(text('Stopping.')),
      reply(text('It is 4.')),
    ]);
    const first = await sendTask(harness, 'fix the bug');
    expect(first.outcome).toBe('stopped_unfinished');

    const second = await sendTask(harness, 'what is 2 + 2?');
    expect(second.outcome).toBe('done');
    expect(harness.server.requests).toHaveLength(5);
    expect(harness.server.errors).toEqual([]);

    const question = harness.server.requests[4]!;
    const blocks = lastBlocks(question);
    expect(blocks[0]).toEqual({ type: 'text', text: 'what is 2 + 2?' });
    const status = blocks.find((b) => b.type === 'text' && b.text.startsWith('<plan-status>'));
    expect(status).toBeDefined();
    expect(textOf([status!])).toContain('[>] #2 Write the fix');
    expect(textOf([status!])).toContain('[ ] #3 Run the tests');
    // The unrelated answer ended the task; the earlier plan is still there, untouched.
    expect(harness.events.filter((e) => e.type === 'task_finished').at(-1)).toMatchObject({ outcome: 'done' });
    expect(harness.core.currentSession!.plan.items.map((i) => i.status)).toEqual(['completed', 'in_progress', 'pending']);
  });

  it('starts the next task with an empty plan after a finished one, keeping the finished plan in the history', async () => {
    let planSeenByNextTask: PlanItem[] | undefined;
    harness = await startAgentHarness([
      reply(toolUse('todo', { items: donePlan })),
      reply(text('All done.')),
      () => {
        planSeenByNextTask = structuredClone(harness!.core.currentSession!.plan.items);
        return reply(text('Hello!'));
      },
    ]);
    expect((await sendTask(harness, 'fix the bug')).outcome).toBe('done');
    expect(harness.core.currentSession!.plan.items).toHaveLength(3);

    expect((await sendTask(harness, 'say hello')).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(planSeenByNextTask).toEqual([]);
    // The finished plan is not carried into the new task as an open one.
    expect(textOf(harness.server.requests[2]!.body.messages.at(-1))).not.toContain('<plan-status>');

    const session = harness.core.currentSession!;
    expect(session.plan.items).toEqual([]);
    const finishedVersion = session.plan.history.find((v) => v.items.length === 3);
    expect(finishedVersion?.items.every((i) => i.status === 'completed')).toBe(true);

    // And it is kept on disk with the session.
    const reopened = WorkspaceSession.open(harness.dataDir, harness.workspace, { sessionId: session.id });
    expect(reopened.plan.history.map((v) => v.items.length)).toEqual([3, 0]);
    expect(reopened.plan.items).toEqual([]);
  });
});
