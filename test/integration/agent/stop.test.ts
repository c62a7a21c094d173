import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CANCELLED_RESULT } from '../../../main/agent/modelTexts';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { bashTool } from '../../../main/tools/bash';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { hang, reply, text, textOf, toolUse } from '../../support/scriptedAnthropic';
import { allBlocks, recordingTool, sendTask, untilStoppedTool, waitFor, waitForEvent, type TaskFinished } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Starts a task through the contract; `finished` settles when it ends. */
async function startTask(h: AgentHarness, text: string): Promise<{ finished: Promise<TaskFinished> }> {
  const sent = await h.core.handlers['task.send']({ text });
  if (!sent.ok) throw new Error(sent.error.message);
  return { finished: waitForEvent(h, (e): e is TaskFinished => e.type === 'task_finished' && e.taskId === sent.value.taskId) };
}

async function stop(h: AgentHarness): Promise<boolean> {
  const stopped = await h.core.handlers['task.stop']({});
  if (!stopped.ok) throw new Error(stopped.error.message);
  return stopped.value.stopped;
}

describe('the person stops a task', () => {
  it('mid-stream: the task ends as cancelled, the half-streamed answer is not kept, and the next task goes on in the same session', async () => {
    harness = await startAgentHarness([
      // Streams the start of an answer, then stalls.
      { ...hang(6), content: [text('Here is the start of a long answer that never arrives in full.')] },
      reply(text('Picking up where we left off.')),
    ]);
    const finishing = await startTask(harness, 'explain the code');
    await waitFor(() => harness!.events.some((e) => e.type === 'text'), 'the answer started streaming');
    expect(await stop(harness)).toBe(true);
    const finished = await finishing.finished;
    expect(finished.outcome).toBe('cancelled');
    expect(harness.core.currentAgent!.running).toBe(false);

    const session = harness.core.currentSession!;
    expect(session.messages.map((m) => m.role)).toEqual(['user']);
    const transcript = readFileSync(session.transcriptPath, 'utf8');
    expect(transcript).not.toContain('Here is the start');
    expect(transcript).toContain('"outcome":"cancelled"');

    // The same session carries on; the validating server accepts the history.
    const next = await sendTask(harness, 'go on');
    expect(next.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const request = harness.server.requests[1]!;
    expect(request.rejected).toBeUndefined();
    expect(textOf(request.body.messages[0])).toContain('explain the code');
    expect(textOf(request.body.messages.at(-1))).toContain('go on');
    expect(JSON.stringify(request.body.messages)).not.toContain('Here is the start');
  });

  it('while a tool runs: every tool call of that answer gets a result saying it was cancelled, and the next task starts from a valid history', async () => {
    const waiting = untilStoppedTool('wait_forever');
    const second = recordingTool('second');
    harness = await startAgentHarness(
      [reply(text('Running both.'), toolUse('wait_forever', {}, 'toolu_wait'), toolUse('second', {}, 'toolu_second')), reply(text('Back again.'))],
      { tools: [waiting, second] },
    );
    const finishing = await startTask(harness, 'run the long thing');
    await waiting.started;
    expect(await stop(harness)).toBe(true);
    const finished = await finishing.finished;
    expect(finished.outcome).toBe('cancelled');
    expect(waiting.sawAbort()).toBe(true);
    expect(second.calls).toEqual([]); // never started after the stop

    const results = harness.events.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => [r.id, r.isError])).toEqual([
      ['toolu_wait', true],
      ['toolu_second', true],
    ]);
    for (const result of results) expect(result.content).toContain('Cancelled');

    const next = await sendTask(harness, 'what happened?');
    expect(next.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const request = harness.server.requests[1]!;
    expect(request.rejected).toBeUndefined();
    const blocks = allBlocks(request);
    const answers = blocks.filter((b) => b.block.type === 'tool_result').map((b) => b.block as { tool_use_id: string; content: string; is_error?: boolean });
    expect(answers.map((a) => [a.tool_use_id, a.is_error])).toEqual([
      ['toolu_wait', true],
      ['toolu_second', true],
    ]);
    expect(answers[1]!.content).toBe(CANCELLED_RESULT);
    expect(textOf(request.body.messages.at(-1))).toContain('what happened?');
  });

  it('while a real command runs: the command is killed, nothing of it is left running, and the next task goes on', async () => {
    // A unique duration makes this run's sleep recognisable among all processes.
    const seconds = `30.${randomInt(100_000, 999_999)}`;
    const marker = `sleep ${seconds}`;
    const pids = (): number[] => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').map(Number);
      } catch {
        return []; // pgrep exits 1 when nothing matches
      }
    };
    const running = () => pids().length > 0;
    harness = await startAgentHarness([reply(toolUse('bash', { command: marker }, 'toolu_sleep')), reply(text('Understood.'))], {
      tools: [bashTool as unknown as AgentTool],
    });
    try {
      const finishing = await startTask(harness, 'wait a while');
      await waitFor(running, `${marker} to start`);
      expect(await stop(harness)).toBe(true);
      const finished = await finishing.finished;
      expect(finished.outcome).toBe('cancelled');
      await waitFor(() => !running(), `${marker} to be gone`, 10_000);

      const result = harness.events.find((e) => e.type === 'tool_result');
      expect(result).toMatchObject({ id: 'toolu_sleep', isError: true });

      const next = await sendTask(harness, 'and now?');
      expect(next.outcome).toBe('done');
      expect(harness.server.errors).toEqual([]);
      expect(harness.server.requests[1]!.rejected).toBeUndefined();
    } finally {
      for (const pid of pids()) process.kill(pid, 'SIGKILL');
    }
  });

  it('when nothing runs, stop does nothing', async () => {
    harness = await startAgentHarness([]);
    expect(await stop(harness)).toBe(false);
    expect(harness.events).toEqual([]);
  });
});
