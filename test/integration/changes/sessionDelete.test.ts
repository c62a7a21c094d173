import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { trashSession } from '../../../main/session/sessionIndex';
import { sessionsFolder } from '../../../main/session/workspaceSession';
import { fileTools } from '../../../main/tools/files';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { waitFor } from '../agent/scenario';
import { listChanges, startChangesHarness, states, undo, unwrap, type ChangesHarness } from './changesScenario';

// Deleting a session erases the copies Keel saved of the person's files to undo that session's
// changes: only that session's Changes view could use them, and it can no longer be opened.

const SECRET = 'TOKEN=s3cr3t-of-the-person';

let harness: ChangesHarness | undefined;
const immutable: string[] = [];
afterEach(async () => {
  for (const folder of immutable.splice(0)) execFileSync('chattr', ['-i', folder]);
  await harness?.close();
  harness = undefined;
});

/** Session A replaces a secret in config.env, then session B (left open) rewrites notes.md. */
async function twoSessions(log?: (message: string) => void): Promise<{ h: ChangesHarness; a: string; b: string; taskB: string }> {
  const h = await startChangesHarness(
    [
      reply(toolUse('write_file', { path: 'config.env', content: 'TOKEN=replaced\n' })),
      reply(text('Done A.')),
      reply(toolUse('write_file', { path: 'notes.md', content: 'agent notes\n' })),
      reply(text('Done B.')),
    ],
    log ? { log } : {},
  );
  harness = h;
  h.write('config.env', `${SECRET}\n`);
  h.write('notes.md', 'my notes\n');
  await h.task('Session A: replace the token');
  const a = h.core.currentSession!.id;
  unwrap(await h.core.handlers['session.new']({}));
  const taskB = await h.task('Session B: rewrite the notes');
  const b = h.core.currentSession!.id;
  // What the agent replaced is kept, to undo with: a copy of the secret.
  expect(filesHolding(h.dataDir, SECRET)).toEqual([expect.stringMatching(new RegExp(`^changes[\\\\/]${a}[\\\\/]blobs[\\\\/][0-9a-f]{64}$`))]);
  return { h, a, b, taskB };
}

/** Files under the data folder (but the trash, where transcripts go on purpose) whose bytes contain `needle`. */
function filesHolding(dataDir: string, needle: string, under = ''): string[] {
  return readdirSync(path.join(dataDir, under)).flatMap((name) => {
    const relative = path.join(under, name);
    if (relative === 'trash') return [];
    const absolute = path.join(dataDir, relative);
    if (statSync(absolute).isDirectory()) return filesHolding(dataDir, needle, relative);
    return readFileSync(absolute).includes(needle) ? [relative] : [];
  });
}

/** Session B's Changes view: its own task only, and its undo puts the person's notes back. */
async function sessionBStillWorks(core: KeelCore, h: ChangesHarness, taskB: string): Promise<void> {
  const listed = await listChanges(core);
  expect(listed.map((t) => t.taskId)).toEqual([taskB]);
  expect(states(listed, taskB)).toEqual({ 'notes.md': 'applied' });
  expect(await undo(core, { taskId: taskB })).toEqual({ done: ['notes.md'], conflicts: [] });
  expect(h.read('notes.md').toString()).toBe('my notes\n');
}

function startAgain(h: ChangesHarness, logs: string[]): KeelCore {
  return new KeelCore({
    dataDir: h.dataDir,
    host: 'web',
    version: 'test',
    tools: () => fileTools,
    settings: () => h.settings,
    headless: true,
    log: (m) => logs.push(m),
  });
}

const chattrWorks = (() => {
  if (process.platform !== 'linux') return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'keel-chattr-'));
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe('deleting a session', () => {
  it('erases its saved copies of the person’s files; the open session’s Changes view and undo still work', async () => {
    const logs: string[] = [];
    const { h, a, b, taskB } = await twoSessions((m) => logs.push(m));
    expect(unwrap(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });

    expect(filesHolding(h.dataDir, SECRET)).toEqual([]);
    // Nothing left aside half-erased; the open session's copies are untouched.
    expect(readdirSync(path.join(h.dataDir, 'changes'))).toEqual([b]);
    // The person's files are as the agent left them: only Keel's copies went.
    expect(h.read('config.env').toString()).toBe('TOKEN=replaced\n');
    expect(unwrap(await h.core.handlers['session.list']({})).map((s) => s.id)).toEqual([b]);
    await sessionBStillWorks(h.core, h, taskB);
    expect(logs.filter((m) => m.startsWith('warning'))).toEqual([]);
  });

  it('the open one: the folder goes on to the newest remaining session, whose rows and undo work', async () => {
    const { h, a, b, taskB } = await twoSessions();
    unwrap(await h.core.handlers['session.open']({ id: a }));
    expect((await listChanges(h.core)).map((t) => t.title)).toEqual(['Session A: replace the token']);

    expect(unwrap(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(h.core.currentSession!.id).toBe(b);
    expect(filesHolding(h.dataDir, SECRET)).toEqual([]);
    expect(readdirSync(path.join(h.dataDir, 'changes'))).toEqual([b]);
    await sessionBStillWorks(h.core, h, taskB);
  });

  it.skipIf(!chattrWorks)('copies that cannot be erased are a warning, not a failed delete, and the next start erases them', async () => {
    const logs: string[] = [];
    const { h, a, taskB } = await twoSessions((m) => logs.push(m));
    const folder = path.join(h.dataDir, 'changes', a);
    // Immutable (chattr +i): not even root may rename it.
    execFileSync('chattr', ['+i', folder]);
    immutable.push(folder);

    expect(unwrap(await h.core.handlers['session.delete']({ id: a }))).toEqual({ deleted: true });
    expect(unwrap(await h.core.handlers['session.list']({})).map((s) => s.id)).not.toContain(a);
    expect(logs.some((m) => m.startsWith('warning: could not erase') && m.includes(folder) && m.includes('tries again at its next start'))).toBe(true);
    await sessionBStillWorks(h.core, h, taskB);

    execFileSync('chattr', ['-i', folder]);
    immutable.splice(0);
    const next = startAgain(h, []);
    try {
      await next.init();
      await waitFor(() => readdirSync(path.join(h.dataDir, 'changes')).length === 1, 'the copies of the deleted session to be erased at the next start');
      expect(existsSync(folder)).toBe(false);
      expect(filesHolding(h.dataDir, SECRET)).toEqual([]);
    } finally {
      await next.dispose();
    }
  });
});

describe('the next start', () => {
  it('finishes what a crash mid-delete (or an older Keel) left, leaves restored sessions alone, and the Changes view works', async () => {
    const { h, a, b, taskB } = await twoSessions();
    const changes = path.join(h.dataDir, 'changes');
    const trash = path.join(h.dataDir, 'trash');
    // A crash right after the transcript went to the trash (as an older Keel always left it).
    expect(trashSession(h.dataDir, h.workspace, a)).toBe(true);
    // A crash halfway through erasing another deleted session's copies.
    mkdirSync(path.join(changes, '.erasing-20240101T000000000Z-abcdef-0a1b2c3d', 'blobs'), { recursive: true });
    writeFileSync(path.join(changes, '.erasing-20240101T000000000Z-abcdef-0a1b2c3d', 'blobs', 'a'.repeat(64)), SECRET);
    // Damaged or foreign things: a trashed session whose copies are a plain file, one whose copies are missing,
    // a file that is no transcript; and B, restored by hand with its copy left in the trash: all must be survived.
    const key = path.basename(sessionsFolder(h.dataDir, h.workspace));
    writeFileSync(path.join(trash, `${key}-20240102T000000000Z-fedcba.jsonl`), '');
    writeFileSync(path.join(changes, '20240102T000000000Z-fedcba'), SECRET);
    writeFileSync(path.join(trash, `${key}-20240103T000000000Z-123456.jsonl`), '');
    writeFileSync(path.join(trash, 'notes.txt'), 'mine');
    copyFileSync(path.join(sessionsFolder(h.dataDir, h.workspace), `${b}.jsonl`), path.join(trash, `${key}-${b}.jsonl`));

    const logs: string[] = [];
    const next = startAgain(h, logs);
    try {
      await next.init();
      unwrap(next.openWorkspace(h.workspace));
      expect(next.currentSession!.id).toBe(b);
      await waitFor(() => readdirSync(changes).length === 1, 'the copies of the deleted sessions to be erased, B’s kept');
      expect(readdirSync(changes)).toEqual([b]);
      expect(filesHolding(h.dataDir, SECRET)).toEqual([]);
      await sessionBStillWorks(next, h, taskB);
      expect(logs.filter((m) => m.startsWith('warning'))).toEqual([]);
    } finally {
      await next.dispose();
    }
  });
});
