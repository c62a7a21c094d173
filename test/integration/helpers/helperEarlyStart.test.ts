import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { HelperInfo } from '../../../common/helpers';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';
import { installGitGate, type GitGate } from './gitGate';

// A helper's first request does not wait for its worktree's checkout; its tools do. The checkout
// is held at a gate the test opens (a `git` on the PATH that holds `git worktree add`), so the
// order is shown by what the scripted server and the events saw, not by how long anything took.

let harness: AgentHarness | undefined;
let gate: GitGate | undefined;
afterEach(async () => {
  gate?.dispose();
  gate = undefined;
  await harness?.close();
  harness = undefined;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' });

function gitRepo(workspace: string): void {
  git(workspace, 'init', '-q', '-b', 'main');
  writeFileSync(join(workspace, 'README.md'), '# Project\n');
  writeFileSync(join(workspace, 'AGENTS.md'), 'Answer in haiku.\n');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'first');
}

/** The helpers' worktree folders under the data folder (markers and scratch folders left out). */
function worktreeDirs(dataDir: string): string[] {
  const home = join(dataDir, 'worktrees');
  if (!existsSync(home)) return [];
  return readdirSync(home).flatMap((hash) => readdirSync(join(home, hash)).filter((name) => !name.startsWith('.') && !name.endsWith('.json')));
}

const step = [{ id: 'a', content: 'Write a.txt', status: 'pending' }];
const INSTRUCTIONS = 'Create a.txt containing A.';

/** The helper's agent events, in order. */
function helperEvents(h: AgentHarness): AgentEvent[] {
  const seen: AgentEvent[] = [];
  h.core.onEvent((event) => {
    if (event.channel === 'helper.event') seen.push(event.payload.event);
  });
  return seen;
}

describe("a helper's worktree is made while its first request is out", { timeout: 60_000 }, () => {
  it('the first request goes out before the checkout ends, and its write waits for the worktree', async () => {
    gate = installGitGate();
    const atFirstRequest: string[] = [];
    let events: AgentEvent[] = [];
    harness = await startAgentHarness(
      [reply(toolUse('todo', { items: step })), reply(toolUse('delegate', { item: 'a', instructions: INSTRUCTIONS })), reply(text('Done.'))],
      {
        tools: workspaceTools(),
        beforeOpen: gitRepo,
        server: {
          agents: [
            {
              name: 'H',
              firstMessage: INSTRUCTIONS,
              script: [
                () => {
                  // The checkout is held shut: whatever the helper's worktree is, it is not ready.
                  atFirstRequest.push(`gate open: false, worktree folders: ${worktreeDirs(harness!.dataDir).length}`);
                  return reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' }, 'toolu_write'));
                },
                reply(text('Wrote a.txt.')),
              ],
            },
          ],
        },
      },
    );
    events = helperEvents(harness);
    const finished = sendTask(harness, 'write a.txt');
    // The helper called write_file and its checkout waits at the gate: the call has no result yet.
    await waitFor(() => events.some((e) => e.type === 'tool_call' && e.name === 'write_file') && gate!.waiting, 'the write call, and the checkout at the gate');
    const resultsBeforeOpen = events.filter((e) => e.type === 'tool_result' && e.name === 'write_file').length;
    gate.open();
    expect((await finished).outcome).toBe('done');

    const { server, workspace, dataDir } = harness;
    expect(server.errors).toEqual([]);
    expect(atFirstRequest).toEqual(['gate open: false, worktree folders: 0']);
    // The system prompt of that early request still carries the workspace's AGENTS.md.
    expect(JSON.stringify(server.agent('H').requests[0]!.body.system)).toContain('Answer in haiku.');
    expect(resultsBeforeOpen).toBe(0);
    // Once the worktree was there, the write ran in it and was merged.
    const writeResult = toolResults(server.agent('H').requests[1]!)[0]!;
    expect(writeResult.is_error).toBeFalsy();
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(worktreeDirs(dataDir)).toEqual([]);
  });

  it('a worktree that cannot be made fails the helper cleanly: no worktree, no ref, the step pending again', async () => {
    gate = installGitGate();
    const changed: HelperInfo[] = [];
    let afterDelegate: ScriptedRequest | undefined;
    let stepAfterFailure: string[] = [];
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: step })),
        reply(toolUse('delegate', { item: 'a', instructions: INSTRUCTIONS })),
        (request) => {
          afterDelegate = request;
          stepAfterFailure = harness!.core.currentSession!.plan.items.map((i) => `${i.status} ${i.owner ?? 'main'}`);
          return reply(toolUse('todo', { items: [{ ...step[0]!, status: 'completed' }] }));
        },
        reply(text('The helper failed; I wrote nothing.')),
      ],
      {
        tools: workspaceTools(),
        beforeOpen: gitRepo,
        server: {
          agents: [
            {
              name: 'H',
              firstMessage: INSTRUCTIONS,
              script: [
                () => {
                  gate!.fail();
                  return reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' }));
                },
                reply(text('Could not write.')),
              ],
            },
          ],
        },
      },
    );
    harness.core.onEvent((event) => {
      if (event.channel === 'helper.changed') changed.push(event.payload);
    });
    expect((await sendTask(harness, 'write a.txt')).outcome).toBe('done');

    const { server, workspace, dataDir } = harness;
    expect(server.errors).toEqual([]);
    const last = changed.at(-1)!;
    expect([last.state, last.reasonCode, last.worktreeKept]).toEqual(['failed', 'internal', false]);
    expect(last.reason).toContain('the test gate failed this checkout');
    // The delegate call failed, and the step was the main agent's again (pending) when it answered.
    const delegateResult = toolResults(afterDelegate!)[0]!;
    expect(delegateResult.is_error).toBe(true);
    expect(JSON.stringify(delegateResult.content)).toContain('failed');
    expect(stepAfterFailure).toEqual(['pending main']);
    // Nothing of it is left: folder, git's record, ref; nothing was written into the folder.
    expect(worktreeDirs(dataDir)).toEqual([]);
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(workspace, 'for-each-ref', 'refs/keel').trim()).toBe('');
    expect(existsSync(join(workspace, 'a.txt'))).toBe(false);
  });
});
