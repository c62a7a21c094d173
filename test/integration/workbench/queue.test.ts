import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { hang, reply, text, textOf, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { eventsOf, gatedTool, lastBlocks, nthEvent, runTask, send, startTask, status, value, waitFor } from './support';

// Messages the person sends while the agent works: queued, then given to the model at its next step.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a message sent while a task runs', () => {
  it('is queued, and reaches the model at its next step as a text block after the tool results', async () => {
    const job = gatedTool('long_job');
    harness = await startAgentHarness([reply(text('Starting the job.'), toolUse('long_job', {}, 'toolu_job')), reply(text('Job done, and I saw your note.'))], {
      tools: [job],
    });
    const task = await startTask(harness, 'run the long job');
    await job.started;

    const sent = await send(harness, 'also update the README when you are done');
    expect(sent.queued).toBe(true);
    expect(sent.taskId).not.toBe(task.taskId);
    const queued = await nthEvent(harness, 'message_queued');
    expect(queued).toEqual({ type: 'message_queued', id: sent.taskId, text: 'also update the README when you are done' });
    expect((await status(harness)).queued).toEqual([{ id: sent.taskId, text: 'also update the README when you are done' }]);
    expect(eventsOf(harness, 'message_taken')).toEqual([]);
    // Still one task: no second task started.
    expect(eventsOf(harness, 'task_started')).toHaveLength(1);

    job.release();
    const finished = await task.finished;
    expect(finished.outcome).toBe('done');
    expect(eventsOf(harness, 'message_taken')).toEqual([{ type: 'message_taken', ids: [sent.taskId] }]);
    expect((await status(harness)).queued).toEqual([]);

    const second = harness.server.requests[1]!;
    expect(second.rejected).toBeUndefined();
    const blocks = lastBlocks(second);
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(blocks[0]).toMatchObject({ tool_use_id: 'toolu_job' });
    expect(blocks[1]).toMatchObject({ type: 'text', text: 'also update the README when you are done' });

    // In order: queued while the tool ran, taken before the second request, then the task ended.
    const order = harness.events.map((e) => e.type).filter((t) => ['message_queued', 'tool_result', 'message_taken', 'task_finished'].includes(t));
    expect(order).toEqual(['message_queued', 'tool_result', 'message_taken', 'task_finished']);
    expect(eventsOf(harness, 'task_finished')).toHaveLength(1);
    expect(harness.server.errors).toEqual([]);
  });

  it('several messages queued during one step all go, in order, in the same user message', async () => {
    const job = gatedTool('long_job');
    harness = await startAgentHarness([reply(toolUse('long_job', {}, 'toolu_job')), reply(text('Noted both.'))], { tools: [job] });
    const task = await startTask(harness, 'go');
    await job.started;
    const a = await send(harness, 'first note');
    const b = await send(harness, 'second note');
    expect([a.queued, b.queued]).toEqual([true, true]);
    job.release();
    expect((await task.finished).outcome).toBe('done');
    expect(lastBlocks(harness.server.requests[1]!).map((block) => (block.type === 'text' ? block.text : block.type))).toEqual([
      'tool_result',
      'first note',
      'second note',
    ]);
    expect(eventsOf(harness, 'message_taken')).toEqual([{ type: 'message_taken', ids: [a.taskId, b.taskId] }]);
  });

  it('queued just as the model ends its turn, it is still given to the model: the task goes on instead of ending', async () => {
    let queuedId = '';
    harness = await startAgentHarness([
      // While the model is answering its final words, the person writes.
      async () => {
        queuedId = (await send(harness!, 'wait, one more thing: add a test')).taskId;
        return reply(text('All done.'));
      },
      reply(text('Added the test as well.')),
    ]);
    const finished = await runTask(harness, 'fix the bug');
    expect(finished.outcome).toBe('done');
    expect(harness.server.requests).toHaveLength(2);
    const second: ScriptedRequest = harness.server.requests[1]!;
    expect(second.rejected).toBeUndefined();
    expect(second.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(textOf(second.body.messages[1])).toBe('All done.');
    expect(textOf(second.body.messages[2])).toBe('wait, one more thing: add a test');
    expect(eventsOf(harness, 'message_taken')).toEqual([{ type: 'message_taken', ids: [queuedId] }]);
    // One task, one end, after the answer to the queued message.
    expect(eventsOf(harness, 'task_started')).toHaveLength(1);
    expect(eventsOf(harness, 'task_finished')).toHaveLength(1);
    const types = harness.events.map((e) => e.type);
    expect(types.indexOf('message_taken')).toBeLessThan(types.indexOf('task_finished'));
    expect(harness.server.errors).toEqual([]);
  });

  it('a stop drops the messages still queued: they are marked as not sent and never reach the model', async () => {
    harness = await startAgentHarness([hang(), reply(text('Hello again.'))]);
    const task = await startTask(harness, 'think hard');
    await waitFor(() => harness!.server.requests.length === 1, 'the first request');
    const a = await send(harness, 'never mind');
    const b = await send(harness, 'actually, do this instead');
    expect((await status(harness)).queued.map((m) => m.id)).toEqual([a.taskId, b.taskId]);

    expect(value(await harness.core.handlers['task.stop']({})).stopped).toBe(true);
    expect((await task.finished).outcome).toBe('cancelled');
    expect(eventsOf(harness, 'message_dropped')).toEqual([{ type: 'message_dropped', ids: [a.taskId, b.taskId] }]);
    expect(eventsOf(harness, 'message_taken')).toEqual([]);
    expect((await status(harness)).queued).toEqual([]);
    // Dropped before the task's end is announced, so the window can mark them at once.
    const types = harness.events.map((e) => e.type);
    expect(types.indexOf('message_dropped')).toBeLessThan(types.indexOf('task_finished'));

    // The next task is a fresh one; the dropped messages are not in what the model sees.
    expect((await send(harness, 'hello')).queued).toBe(false);
    await waitFor(() => eventsOf(harness!, 'task_finished').length === 2, 'the second task to end');
    const next = harness.server.requests[1]!;
    expect(next.rejected).toBeUndefined();
    expect(JSON.stringify(next.body.messages)).not.toContain('never mind');
    expect(JSON.stringify(next.body.messages)).not.toContain('do this instead');

    // The restored chat shows them as never sent, as the live chat did.
    const history = value(await harness.core.handlers['chat.history']({}));
    const dropped = history.filter((item) => item.kind === 'user' && (item.id === a.taskId || item.id === b.taskId));
    expect(dropped).toEqual([
      { kind: 'user', id: a.taskId, text: 'never mind', notSent: true },
      { kind: 'user', id: b.taskId, text: 'actually, do this instead', notSent: true },
    ]);
  });

  it('with no task running, a message starts a task rather than being queued', async () => {
    harness = await startAgentHarness([reply(text('Hi.'))]);
    const sent = await send(harness, 'hello');
    expect(sent.queued).toBe(false);
    await waitFor(() => eventsOf(harness!, 'task_finished')[0], 'the task to end');
    expect(eventsOf(harness, 'message_queued')).toEqual([]);
    expect(eventsOf(harness, 'task_started')).toEqual([{ type: 'task_started', taskId: sent.taskId, text: 'hello' }]);
  });
});
