import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HelperInfo } from '../../../common/helpers';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { hang, reply, text, textOf, toolResults, toolUse, type ScriptedAgent, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';

// Helpers in a git workspace, through the core as `keel run` builds it (headless, the real SDK
// against the scripted server): side by side, each in a worktree of its own, merged three-way.

let harness: AgentHarness | undefined;
afterEach(async () => {
  log = [];
  await harness?.close();
  harness = undefined;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' });

function gitRepo(workspace: string): void {
  git(workspace, 'init', '-q', '-b', 'main');
  writeFileSync(join(workspace, 'README.md'), '# Project\n');
  writeFileSync(join(workspace, 'shared.txt'), 'one\ntwo\nthree\n');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'first');
}

const resultTexts = (request: ScriptedRequest): string[] =>
  toolResults(request).map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));

/** Every helper worktree under the data folder (`<dataDir>/worktrees/<workspace hash>/<name>`). */
function worktreeDirs(dataDir: string): string[] {
  const home = join(dataDir, 'worktrees');
  if (!existsSync(home)) return [];
  return readdirSync(home).flatMap((hash) =>
    readdirSync(join(home, hash))
      .filter((name) => !name.startsWith('.') && !name.endsWith('.json'))
      .map((name) => join(home, hash, name)),
  );
}

const twoSteps = [
  { id: 'a', content: 'Write a.txt', status: 'pending' },
  { id: 'b', content: 'Write b.txt', status: 'pending' },
];
const allDone = (items: typeof twoSteps) => items.map((item) => ({ id: item.id, content: item.content, status: 'completed' }));

/** When each helper first asked the model and when it gave its last answer. */
let log: string[] = [];
/** Its first answer, noting that it asked. */
const asked = (name: string, step: ReturnType<typeof reply>) => () => {
  log.push(`${name} asked`);
  return step;
};
/** Answers once `other` has sent `count` requests: two helpers wait for each other, so they provably overlap. */
const after = (name: string, other: () => ScriptedAgent, count: number, then: () => ReturnType<typeof reply>, check?: () => void) => async () => {
  await waitFor(() => other().requests.length >= count, `${other().name}'s request ${count}`);
  check?.();
  log.push(`${name} answered`);
  return then();
};

describe('helpers in a git workspace', { timeout: 60_000 }, () => {
  it('runs two delegated steps at once, each in its own worktree, merges both, and leaves no worktree or stray file', async () => {
    const seenMidWork: string[] = [];
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: twoSteps })),
        reply(
          toolUse('delegate', { item: 'a', instructions: 'Create a.txt containing A.' }),
          toolUse('delegate', { item: 'b', instructions: 'Create b.txt containing B.' }),
        ),
        reply(text('Both files are written and merged.')),
      ],
      {
        tools: workspaceTools(),
        beforeOpen: gitRepo,
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Create a.txt containing A.',
              script: [
                asked('A', reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' }))),
                after(
                  'A',
                  () => harness!.server.agent('B'),
                  2,
                  () => reply(text('Wrote a.txt.')),
                  () => {
                    // Both helpers have written; neither the folder nor the other helper sees it.
                    const { workspace, dataDir } = harness!;
                    seenMidWork.push(`folder a=${existsSync(join(workspace, 'a.txt'))} b=${existsSync(join(workspace, 'b.txt'))}`);
                    for (const dir of worktreeDirs(dataDir))
                      seenMidWork.push(`worktree a=${existsSync(join(dir, 'a.txt'))} b=${existsSync(join(dir, 'b.txt'))}`);
                  },
                ),
              ],
            },
            {
              name: 'B',
              firstMessage: 'Create b.txt containing B.',
              script: [
                asked('B', reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' }))),
                after(
                  'B',
                  () => harness!.server.agent('A'),
                  2,
                  () => reply(text('Wrote b.txt.')),
                ),
              ],
            },
          ],
        },
      },
    );
    const finished = await sendTask(harness, 'write the two files');
    expect(finished.outcome).toBe('done');
    const { server, workspace, dataDir } = harness;
    expect(server.errors).toEqual([]);
    expect(server.remaining).toBe(0);

    // Each helper asked the model before the other's last answer: they worked at the same time.
    expect(log.indexOf('B asked')).toBeLessThan(log.indexOf('A answered'));
    expect(log.indexOf('A asked')).toBeLessThan(log.indexOf('B answered'));
    // Fresh contexts.
    expect(server.agent('A').requests[0]!.body.messages).toHaveLength(1);
    expect(textOf(server.agent('B').requests[0]!.body.messages[0])).toContain('Step #b: Write b.txt');
    expect(seenMidWork.sort()).toEqual(['folder a=false b=false', 'worktree a=false b=true', 'worktree a=true b=false']);

    // Both merged; the main agent's next request carries both results.
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('B\n');
    const results = resultTexts(server.requests.at(-1)!);
    expect(results[0]).toContain('helper-1 finished step #a');
    expect(results[0]).toContain('Files changed: a.txt.');
    expect(results[0]).toContain('merged into the folder');
    expect(results[1]).toContain('Files changed: b.txt.');
    expect(results[1]).toContain('Wrote b.txt.');
    expect(harness.core.currentSession!.plan.items.map((i) => [i.id, i.status, i.owner])).toEqual([
      ['a', 'completed', 'helper-1'],
      ['b', 'completed', 'helper-2'],
    ]);
    const list = await harness.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.id, h.state, h.merge, h.isolation, h.worktreeKept])).toEqual([
      ['helper-1', 'done', 'merged', 'worktree', false],
      ['helper-2', 'done', 'merged', 'worktree', false],
    ]);

    // The Changes view shows the merged files as the task's.
    const changes = await harness.core.handlers['changes.list']({});
    expect(changes.ok && changes.value.flatMap((task) => task.files.map((file) => file.path)).sort()).toEqual(['a.txt', 'b.txt']);

    // Nothing left behind: no worktree, no stray file, the person's history untouched.
    expect(worktreeDirs(dataDir)).toEqual([]);
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(workspace, 'status', '--porcelain').trim().split('\n').sort()).toEqual(['?? a.txt', '?? b.txt']);
    expect(git(workspace, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
  });

  it('a conflicting helper: the folder is unchanged, the conflict is in the result and its info; its version opens and merges', async () => {
    const changed: HelperInfo[] = [];
    let stepAfterConflict = '';
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: [{ id: 'edit', content: 'Change line two', status: 'pending' }] })),
        reply(toolUse('delegate', { item: 'edit', instructions: 'Replace line two of shared.txt with TWO.' })),
        () => {
          // Read while the conflict is fresh: the step is the helper's, pending, its worktree kept.
          stepAfterConflict = JSON.stringify(harness!.core.currentSession!.plan.items[0]);
          return reply(toolUse('todo', { items: [{ id: 'edit', content: 'Change line two', status: 'completed' }] }));
        },
        reply(text('The change conflicts; the person will decide.')),
      ],
      {
        tools: workspaceTools(),
        beforeOpen: gitRepo,
        server: {
          agents: [
            {
              name: 'H',
              firstMessage: 'Replace line two of shared.txt',
              script: [
                reply(toolUse('edit_file', { path: 'shared.txt', old_text: 'two', new_text: 'TWO' })),
                () => {
                  // Meanwhile the person changes the same line in the folder.
                  writeFileSync(join(harness!.workspace, 'shared.txt'), 'one\n2\nthree\n');
                  return reply(text('Line two is TWO now.'));
                },
              ],
            },
          ],
        },
      },
    );
    harness.core.onEvent((event) => {
      if (event.channel === 'helper.changed') changed.push(event.payload);
    });
    const finished = await sendTask(harness, 'change line two');

    expect(finished.outcome).toBe('done');
    const { server, workspace } = harness;
    expect(server.errors).toEqual([]);
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('one\n2\nthree\n');
    const [result] = resultTexts(server.requests.at(-2)!);
    expect(result).toContain('NOT merged');
    expect(result).toContain('Conflicting files: shared.txt.');
    expect(toolResults(server.requests.at(-2)!)[0]!.is_error).toBe(true);
    expect(JSON.parse(stepAfterConflict)).toMatchObject({ status: 'pending', owner: 'helper-1' });
    const info = changed.at(-1)!;
    expect([info.state, info.merge, info.conflictFiles, info.worktreeKept]).toEqual(['conflict', 'conflict', ['shared.txt'], true]);

    const version = await harness.core.handlers['helper.openVersion']({ id: 'helper-1' });
    expect(version.ok && version.value.files).toEqual([
      { path: 'shared.txt', theirs: 'one\nTWO\nthree\n', base: 'one\ntwo\nthree\n', ours: 'one\n2\nthree\n', conflict: true },
    ]);
    const merged = await harness.core.handlers['helper.merge']({ id: 'helper-1', strategy: 'theirs' });
    expect(merged.ok && [merged.value.state, merged.value.merge, merged.value.worktreeKept]).toEqual(['done', 'merged', false]);
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(harness.core.currentSession!.plan.items[0]).toMatchObject({ status: 'completed', owner: 'helper-1' });
    expect(worktreeDirs(harness.dataDir)).toEqual([]);
    const again = await harness.core.handlers['helper.discard']({ id: 'helper-1' });
    expect(!again.ok && again.error.code).toBe('helper_no_worktree');
  });

  it('Stop on one helper stops only it: its step goes back to pending, the other merges', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: twoSteps })),
        reply(
          toolUse('delegate', { item: 'a', instructions: 'Create a.txt containing A.' }),
          toolUse('delegate', { item: 'b', instructions: 'Create b.txt containing B.' }),
        ),
        reply(toolUse('todo', { items: allDone(twoSteps) })),
        reply(text('b is done; a was stopped, so I wrote it myself.')),
      ],
      {
        tools: workspaceTools(),
        beforeOpen: gitRepo,
        server: {
          agents: [
            { name: 'A', firstMessage: 'Create a.txt containing A.', script: [hang()] },
            {
              name: 'B',
              firstMessage: 'Create b.txt containing B.',
              script: [
                reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' })),
                after(
                  'B',
                  () => harness!.server.agent('A'),
                  1,
                  () => reply(text('Wrote b.txt.')),
                ),
              ],
            },
          ],
        },
      },
    );
    const finishing = sendTask(harness, 'write the two files');
    await waitFor(() => harness!.server.agent('A').requests.length === 1, 'helper A asked the model');
    const stopped = await harness.core.handlers['helper.stop']({ id: 'helper-1' });
    expect(stopped.ok && stopped.value.stopped).toBe(true);
    const finished = await finishing;
    expect(finished.outcome).toBe('done');
    const { server, workspace } = harness;
    expect(server.errors).toEqual([]);
    const [a, b] = resultTexts(server.requests[server.requests.length - 2]!);
    expect(a).toContain('helper-1 was stopped on step #a');
    expect(a).toContain('Stopped by the person.');
    expect(a).toContain('On the plan, step #a is now pending again.');
    expect(b).toContain('helper-2 finished step #b');
    expect(b).toContain('On the plan, step #b is now completed (Keel marked it; no todo call is needed for it).');
    expect(existsSync(join(workspace, 'b.txt'))).toBe(true);
    const list = await harness.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.id, h.state, h.reasonCode ?? null, h.merge])).toEqual([
      ['helper-1', 'stopped', 'stopped_by_person', 'nothing'],
      ['helper-2', 'done', null, 'merged'],
    ]);
    // Its step went back to pending for the main agent before the agent's own todo completed it.
    const versions = harness.core.currentSession!.plan.history;
    expect(versions.some((v) => v.items[0]!.status === 'pending' && v.items[0]!.owner === undefined && v.items[1]!.status === 'completed')).toBe(true);
    expect(worktreeDirs(harness.dataDir)).toEqual([]);
    const again = await harness.core.handlers['helper.stop']({ id: 'helper-1' });
    expect(again.ok && again.value.stopped).toBe(false);
  });
});
