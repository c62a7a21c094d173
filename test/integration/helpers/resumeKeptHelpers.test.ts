import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';

// A helper whose merge conflicted keeps its worktree for the person. Keel quits and starts again,
// the session is reopened: the board's open, merge and discard of that helper's version still work.

const harnesses: AgentHarness[] = [];
let dataDir: string | undefined;
/** The first Keel's folder, kept past its quit for the next start. */
let repo: string | undefined;
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const folder of [dataDir, repo]) if (folder) rmSync(folder, { recursive: true, force: true });
  dataDir = repo = undefined;
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' });

function gitRepo(workspace: string): void {
  git(workspace, 'init', '-q', '-b', 'main');
  writeFileSync(join(workspace, 'shared.txt'), 'one\ntwo\nthree\n');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'first');
}

/** A first Keel whose helper-1 conflicts with the person's edit of the same line; then it quits. */
async function conflictThenQuit(): Promise<{ workspace: string; sessionId: string; worktree: string }> {
  dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
  let workspace = '';
  const first = await startAgentHarness(
    [
      reply(toolUse('todo', { items: [{ id: 'edit', content: 'Change line two', status: 'pending' }] })),
      reply(toolUse('delegate', { item: 'edit', instructions: 'Replace line two of shared.txt with TWO.' })),
      reply(text('The change conflicts; the person will decide.')),
    ],
    {
      tools: workspaceTools(),
      dataDir,
      // The step stays open for the person: the task ends at once with its plan unfinished.
      settings: { gateBound: 0 },
      beforeOpen: (folder) => {
        workspace = repo = folder;
        gitRepo(folder);
      },
      server: {
        agents: [
          {
            name: 'H',
            firstMessage: 'Replace line two of shared.txt',
            script: [
              reply(toolUse('edit_file', { path: 'shared.txt', old_text: 'two', new_text: 'TWO' })),
              () => {
                writeFileSync(join(workspace, 'shared.txt'), 'one\n2\nthree\n');
                return reply(text('Line two is TWO now.'));
              },
            ],
          },
        ],
      },
    },
  );
  const finished = await sendTask(first, 'change line two');
  expect(first.server.errors).toEqual([]);
  expect(finished.outcome).toBe('stopped_unfinished');
  const sessionId = first.core.currentSession!.id;
  const version = await first.core.handlers['helper.openVersion']({ id: 'helper-1' });
  expect(version.ok).toBe(true);
  // Keel quits (the core whole, as the host's quit does); the workspace stays for the next start.
  await first.core.dispose();
  await first.server.close();
  return { workspace, sessionId, worktree: version.ok ? version.value.worktree : '' };
}

/** Keel starts again on the same data folder and the person reopens the session. */
async function restart(workspace: string, sessionId: string): Promise<AgentHarness> {
  const second = await startAgentHarness([], { dataDir });
  harnesses.push(second);
  const opened = second.core.openWorkspace(workspace, { sessionId });
  if (!opened.ok) throw new Error(opened.error.message);
  return second;
}

describe('a kept helper worktree after Keel starts again', { timeout: 90_000 }, () => {
  it("the board still opens the conflicted helper's version and merges it with 'theirs'", async () => {
    const { workspace, sessionId, worktree } = await conflictThenQuit();
    const second = await restart(workspace, sessionId);

    const list = await second.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.id, h.state, h.merge, h.worktreeKept])).toEqual([['helper-1', 'conflict', 'conflict', true]]);
    expect(second.core.currentSession!.plan.items[0]).toMatchObject({ id: 'edit', status: 'pending', owner: 'helper-1' });
    const version = await second.core.handlers['helper.openVersion']({ id: 'helper-1' });
    expect(version.ok && version.value).toEqual({
      worktree,
      files: [{ path: 'shared.txt', theirs: 'one\nTWO\nthree\n', base: 'one\ntwo\nthree\n', ours: 'one\n2\nthree\n', conflict: true }],
    });

    const merged = await second.core.handlers['helper.merge']({ id: 'helper-1', strategy: 'theirs' });
    expect(merged.ok && [merged.value.state, merged.value.merge, merged.value.worktreeKept]).toEqual(['done', 'merged', false]);
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(second.core.currentSession!.plan.items[0]).toMatchObject({ status: 'completed', owner: 'helper-1' });
    await second.core.dispose();
    expect(existsSync(worktree)).toBe(false);
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(workspace, 'for-each-ref', 'refs/keel')).toBe('');

    // The session opened once more remembers it merged: nothing is offered again.
    const third = await restart(workspace, sessionId);
    const after = await third.core.handlers['helper.list']({});
    expect(after.ok && after.value.helpers.map((h) => [h.state, h.merge, h.worktreeKept])).toEqual([['done', 'merged', false]]);
  });

  it('discard after a restart removes the worktree and gives the step back; the folder is unchanged', async () => {
    const { workspace, sessionId, worktree } = await conflictThenQuit();
    const second = await restart(workspace, sessionId);

    const discarded = await second.core.handlers['helper.discard']({ id: 'helper-1' });
    expect(discarded.ok && [discarded.value.merge, discarded.value.worktreeKept]).toEqual(['discarded', false]);
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('one\n2\nthree\n');
    expect(second.core.currentSession!.plan.items[0]).toMatchObject({ status: 'pending' });
    expect(second.core.currentSession!.plan.items[0]!.owner).toBeUndefined();
    await second.core.dispose();
    expect(existsSync(worktree)).toBe(false);
    expect(git(workspace, 'for-each-ref', 'refs/keel')).toBe('');
  });

  it('a kept worktree removed by hand meanwhile is no longer offered, and its step is the main agent’s again', async () => {
    const { workspace, sessionId, worktree } = await conflictThenQuit();
    rmSync(worktree, { recursive: true, force: true });
    const second = await restart(workspace, sessionId);

    const version = await second.core.handlers['helper.openVersion']({ id: 'helper-1' });
    expect(!version.ok && version.error.code).toBe('helper_no_worktree');
    const list = await second.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.state, h.worktreeKept])).toEqual([['conflict', false]]);
    expect(second.core.currentSession!.plan.items[0]!.owner).toBeUndefined();
  });

  it("deleting the session removes its helpers' transcripts, kept worktrees and refs", async () => {
    const { workspace, sessionId, worktree } = await conflictThenQuit();
    const second = await restart(workspace, sessionId);
    const sessions = dirname(second.core.currentSession!.transcriptPath);
    expect(readdirSync(sessions)).toContain(`${sessionId}.helpers`);

    const deleted = await second.core.handlers['session.delete']({ id: sessionId });
    expect(deleted.ok && deleted.value).toEqual({ deleted: true });

    expect(readdirSync(sessions).filter((name) => name.startsWith(sessionId))).toEqual([]);
    expect(existsSync(worktree)).toBe(false);
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(workspace, 'for-each-ref', 'refs/keel')).toBe('');
    // The folder is as the person left it.
    expect(readFileSync(join(workspace, 'shared.txt'), 'utf8')).toBe('one\n2\nthree\n');
    await second.core.dispose();
    expect(readdirSync(dirname(worktree)).filter((name) => !name.startsWith('.tmp-'))).toEqual([]);
  });

  it('deleting it from another session of the folder removes them too', async () => {
    const { workspace, sessionId, worktree } = await conflictThenQuit();
    const second = await restart(workspace, sessionId);
    expect((await second.core.handlers['helper.openVersion']({ id: 'helper-1' })).ok).toBe(true);
    expect((await second.core.handlers['session.new']({})).ok).toBe(true);
    const sessions = dirname(second.core.currentSession!.transcriptPath);

    const deleted = await second.core.handlers['session.delete']({ id: sessionId });
    expect(deleted.ok && deleted.value).toEqual({ deleted: true });

    expect(readdirSync(sessions).filter((name) => name.startsWith(sessionId))).toEqual([]);
    expect(existsSync(worktree)).toBe(false);
    // The session that had it open let the worktree go when it closed (session.new), removing
    // it in the background; its ref goes last, so on a busy machine it can still be there for a
    // moment after the delete answered.
    await waitFor(() => git(workspace, 'for-each-ref', 'refs/keel') === '', 'the helper’s ref to be removed', 10_000);
  });
});
