import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../common/contract';
import { KeelCore } from '../../../main/api/core';
import { dispatchRequest } from '../../../main/api/dispatch';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { hang, reply, text, toolUse } from '../../support/scriptedAnthropic';
import { realTools, runTask, startTask, value, waitFor } from './support';

// The sessions of a folder and the folder pickers, as the window's sidebar and "Open Folder…" use them.

let harness: AgentHarness | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanup.push(dir);
  return dir;
}

const plan = (status: string) => ({
  items: [
    { content: 'Write hello.txt', status },
    { content: 'Report back', status },
  ],
});

describe('the sessions of the open folder', () => {
  it('session.list names each by its first task and shows its last outcome; session.new starts an empty one; session.open brings an older one back with its plan and chat', async () => {
    harness = await startAgentHarness(
      [
        reply(text('Planning.'), toolUse('todo', plan('completed'), 'toolu_plan')),
        reply(text('Writing.'), toolUse('write_file', { path: 'hello.txt', content: 'hi\n' }, 'toolu_write')),
        reply(text('Wrote hello.txt.')),
        reply(text('Carrying on.')),
      ],
      { tools: realTools() },
    );
    const { core } = harness;
    expect(value(await core.handlers['session.list']({}))).toEqual([
      expect.objectContaining({ id: core.currentSession!.id, title: 'New session', lastOutcome: null }),
    ]);

    expect((await runTask(harness, 'Write hello.txt\nwith a greeting in it')).outcome).toBe('done');
    const first = core.currentSession!.id;
    const firstPlan = value(await core.handlers['plan.get']({}));
    expect(firstPlan.items.map((i) => i.content)).toEqual(['Write hello.txt', 'Report back']);
    const firstChat = value(await core.handlers['chat.history']({}));

    const listed = value(await core.handlers['session.list']({}));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: first, title: 'Write hello.txt', lastOutcome: 'done' });
    expect(Date.parse(listed[0]!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(listed[0]!.createdAt));

    // A new session: empty plan, empty chat, listed first.
    const fresh = value(await core.handlers['session.new']({}));
    expect(fresh.sessionId).not.toBe(first);
    expect(fresh.path).toBe(harness.workspace);
    expect(value(await core.handlers['plan.get']({}))).toEqual({ version: 0, source: null, items: [], at: null });
    expect(value(await core.handlers['chat.history']({}))).toEqual([]);
    expect(value(await core.handlers['agent.status']({})).usage.inputTokens).toBe(0);
    expect(value(await core.handlers['session.list']({})).map((s) => [s.id, s.title, s.lastOutcome])).toEqual([
      [fresh.sessionId, 'New session', null],
      [first, 'Write hello.txt', 'done'],
    ]);

    // Back to the first one.
    const reopened = value(await core.handlers['session.open']({ id: first }));
    expect(reopened.sessionId).toBe(first);
    expect(value(await core.handlers['workspace.current']({}))?.sessionId).toBe(first);
    expect(value(await core.handlers['plan.get']({}))).toEqual(firstPlan);
    const chat = value(await core.handlers['chat.history']({}));
    expect(chat).toEqual(firstChat);
    expect(chat.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'outcome']);
    expect(chat[0]).toMatchObject({ kind: 'user', text: 'Write hello.txt\nwith a greeting in it' });
    expect(chat[2]).toMatchObject({ kind: 'tool', id: 'toolu_plan', name: 'todo', result: { isError: false } });
    expect(chat[4]).toMatchObject({
      kind: 'tool',
      id: 'toolu_write',
      name: 'write_file',
      input: { path: 'hello.txt', content: 'hi\n' },
      result: { isError: false },
    });
    expect(chat[6]).toMatchObject({ kind: 'outcome', outcome: 'done' });

    // The reopened session carries on: the model gets its whole history.
    expect((await runTask(harness, 'one more')).outcome).toBe('done');
    expect(harness.server.requests.at(-1)!.body.messages).toHaveLength(7);
    expect(harness.server.errors).toEqual([]);
  });

  it('a first message longer than the part of the file the list reads still names the session', async () => {
    harness = await startAgentHarness([reply(text('That is a long log.')), reply(text('Short one.'))]);
    const log = Array.from({ length: 3000 }, (_, i) => `line ${i}: something happened in the build, and then something else`).join('\n');
    await runTask(harness, `Why does the build fail? Here is the log:\n${log}`);
    await runTask(harness, 'a later short question');
    const [listed] = value(await harness.core.handlers['session.list']({}));
    expect(listed).toMatchObject({ title: 'Why does the build fail? Here is the log:', lastOutcome: 'done' });
    // The tooltip's text: more than the title, but not the whole pasted log.
    expect(listed!.task!.startsWith('Why does the build fail? Here is the log:\nline 0: something happened')).toBe(true);
    expect(listed!.task!.length).toBe(600);
  });

  it('newest first, also for sessions started within the same second', async () => {
    harness = await startAgentHarness([]);
    const { core } = harness;
    const ids = [core.currentSession!.id];
    for (let i = 0; i < 4; i++) {
      // Something in each (its approval mode), so that "New session" does not reuse it.
      value(await core.handlers['approval.setMode']({ mode: 'ask' }));
      ids.push(value(await core.handlers['session.new']({})).sessionId);
    }
    expect(value(await core.handlers['session.list']({})).map((s) => s.id)).toEqual([...ids].reverse());
  });

  it('session.new reuses a session in which nothing happened yet, rather than piling up empty ones', async () => {
    harness = await startAgentHarness([]);
    const { core } = harness;
    const first = core.currentSession!.id;
    // The open session is untouched: "New session" stays on it.
    expect(value(await core.handlers['session.new']({})).sessionId).toBe(first);
    expect(value(await core.handlers['session.list']({}))).toHaveLength(1);
    // Once something happened in it, a new one is made; from there, back to an old one and
    // "New session" again goes to that same untouched one.
    value(await core.handlers['approval.setMode']({ mode: 'ask' }));
    const second = value(await core.handlers['session.new']({})).sessionId;
    expect(second).not.toBe(first);
    value(await core.handlers['session.open']({ id: first }));
    expect(value(await core.handlers['session.new']({})).sessionId).toBe(second);
    expect(value(await core.handlers['session.list']({})).map((s) => s.id)).toEqual([second, first]);
  });

  it('session.open of a session that does not exist says so in words for the window', async () => {
    harness = await startAgentHarness([]);
    const opened = await dispatchRequest(harness.core.handlers, 'session.open', { id: '20990101T000000Z-abcdef' });
    expect(opened).toMatchObject({ ok: false, error: { code: ErrorCodes.workspaceNotFound } });
    const message = opened.ok ? '' : opened.error.message;
    expect(message).toContain('20990101T000000Z-abcdef');
    expect(message).not.toContain('--resume');
    expect((await dispatchRequest(harness.core.handlers, 'session.open', { id: '../../etc/passwd' })).ok).toBe(false);
  });
});

describe('deleting a session', () => {
  it('moves its transcript to the trash folder and out of the list', async () => {
    harness = await startAgentHarness([reply(text('Old answer.'))]);
    const { core, dataDir } = harness;
    await runTask(harness, 'an old question');
    const old = core.currentSession!.id;
    const oldPath = core.currentSession!.transcriptPath;
    const current = value(await core.handlers['session.new']({})).sessionId;

    expect(value(await core.handlers['session.delete']({ id: old }))).toEqual({ deleted: true });
    expect(value(await core.handlers['session.list']({})).map((s) => s.id)).toEqual([current]);
    expect(existsSync(oldPath)).toBe(false);
    const trashed = readdirSync(join(dataDir, 'trash'));
    expect(trashed).toHaveLength(1);
    expect(trashed[0]).toContain(old);
    // The open session is untouched, and a second delete finds nothing.
    expect(core.currentSession!.id).toBe(current);
    expect(value(await core.handlers['session.delete']({ id: old }))).toEqual({ deleted: false });
    expect(value(await core.handlers['session.delete']({ id: '../settings' }))).toEqual({ deleted: false });
  });

  it('refuses to delete the session that is running a task; once it ends, deleting it moves the folder on to another session', async () => {
    harness = await startAgentHarness([hang()]);
    const { core } = harness;
    const other = core.currentSession!.id;
    value(await core.handlers['approval.setMode']({ mode: 'ask' }));
    const busy = value(await core.handlers['session.new']({})).sessionId;
    const task = await startTask(harness, 'think forever');
    await waitFor(() => harness!.server.requests.length === 1, 'the request');

    const refused = await dispatchRequest(core.handlers, 'session.delete', { id: busy });
    expect(refused).toMatchObject({ ok: false, error: { code: ErrorCodes.taskRunning } });
    expect(existsSync(core.currentSession!.transcriptPath)).toBe(true);
    // Switching away is refused as well while the task runs.
    expect(await dispatchRequest(core.handlers, 'session.open', { id: other })).toMatchObject({ ok: false, error: { code: ErrorCodes.taskRunning } });

    value(await core.handlers['task.stop']({}));
    expect((await task.finished).outcome).toBe('cancelled');
    expect(value(await core.handlers['session.delete']({ id: busy }))).toEqual({ deleted: true });
    expect(core.currentSession!.id).toBe(other);
    expect(value(await core.handlers['session.list']({})).map((s) => s.id)).toEqual([other]);
  });
});

describe('folders', () => {
  it('folders.recent lists the opened folders, newest first, each once', async () => {
    const dataDir = tempDir('keel-data-');
    const a = tempDir('keel-alpha-');
    const b = tempDir('keel-beta-');
    const core = new KeelCore({ dataDir, host: 'web', version: 'test' });
    expect(value(await core.handlers['folders.recent']({}))).toEqual([]);
    value(await core.handlers['workspace.open']({ path: a }));
    value(await core.handlers['workspace.open']({ path: b }));
    const recent = value(await core.handlers['folders.recent']({}));
    expect(recent.map((f) => [f.path, f.name])).toEqual([
      [b, basename(b)],
      [a, basename(a)],
    ]);
    expect(Date.parse(recent[0]!.openedAt)).toBeGreaterThanOrEqual(Date.parse(recent[1]!.openedAt));
    value(await core.handlers['workspace.open']({ path: a }));
    expect(value(await core.handlers['folders.recent']({})).map((f) => f.path)).toEqual([a, b]);
    // A restart reads the same list.
    const again = new KeelCore({ dataDir, host: 'web', version: 'test' });
    expect(value(await again.handlers['folders.recent']({})).map((f) => f.path)).toEqual([a, b]);
  });

  it('folders.complete completes a typed absolute path to sub-folders; hidden ones only after a "."', async () => {
    const root = tempDir('keel-complete-');
    for (const dir of ['alpha', 'alpine', 'beta', '.hidden', '.config', join('alpha', 'inner')]) mkdirSync(join(root, dir));
    writeFileSync(join(root, 'alps.txt'), 'a file, not a folder');
    symlinkSync(join(root, 'beta'), join(root, 'also-beta'));
    const core = coreFor();
    const ask = async (partial: string) => value(await core.handlers['folders.complete']({ partial }));

    expect(await ask(`${root}/al`)).toEqual([`${root}/alpha/`, `${root}/alpine/`, `${root}/also-beta/`]);
    expect(await ask(`${root}/`)).toEqual([`${root}/alpha/`, `${root}/alpine/`, `${root}/also-beta/`, `${root}/beta/`]);
    expect(await ask(`${root}/.`)).toEqual([`${root}/.config/`, `${root}/.hidden/`]);
    expect(await ask(`${root}/.h`)).toEqual([`${root}/.hidden/`]);
    expect(await ask(`${root}/alpha/`)).toEqual([`${root}/alpha/inner/`]);
    expect(await ask(`${root}/nothing-here`)).toEqual([]);
    expect(await ask(`${root}/missing/deeper/`)).toEqual([]);
    expect(await ask('relative/path')).toEqual([]);
    expect(await ask('')).toEqual([]);
  });
});

function coreFor(): KeelCore {
  return new KeelCore({ dataDir: tempDir('keel-data-'), host: 'web', version: 'test' });
}
