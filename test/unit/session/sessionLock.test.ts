import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockPathFor, lockSession, processStart, sessionLockOwner } from '../../../main/session/sessionLock';

// The lock file itself, against real processes: which owners count as alive, which are taken over.

let dir: string;
let transcript: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-lock-'));
  transcript = join(dir, 'session.jsonl');
  writeFileSync(transcript, '');
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function sleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return new Promise((resolve) => child.once('spawn', () => resolve(child)));
}

const lockOf = (owner: object) => writeFileSync(lockPathFor(transcript), JSON.stringify({ host: hostname(), nonce: 'n1', at: '', ...owner }));

describe('session lock', () => {
  it('refuses while a live process holds it, naming that process', async () => {
    const child = await sleeper();
    lockOf({ pid: child.pid, started: processStart(child.pid!) });
    const attempt = lockSession(transcript);
    expect(attempt.ok).toBe(false);
    if (!attempt.ok) expect(attempt.owner.pid).toBe(child.pid);
    expect(sessionLockOwner(transcript)?.pid).toBe(child.pid);
  });

  it('takes over the lock of a process that has exited', async () => {
    const child = await sleeper();
    lockOf({ pid: child.pid, started: processStart(child.pid!) });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const attempt = lockSession(transcript);
    expect(attempt.ok).toBe(true);
    expect(JSON.parse(readFileSync(lockPathFor(transcript), 'utf8'))).toMatchObject({ pid: process.pid });
    if (attempt.ok) attempt.lock.release();
    expect(existsSync(lockPathFor(transcript))).toBe(false);
  });

  it('takes over a lock whose pid now belongs to another program (reused pid), and one of an earlier process with our pid', async () => {
    const child = await sleeper();
    lockOf({ pid: child.pid, started: '1' });
    const reused = lockSession(transcript);
    expect(reused.ok).toBe(true);
    if (reused.ok) reused.lock.release();
    lockOf({ pid: process.pid, started: processStart(process.pid) });
    const ours = lockSession(transcript);
    expect(ours.ok).toBe(true);
    if (ours.ok) ours.lock.release();
  });

  it('takes over a damaged lock file', () => {
    writeFileSync(lockPathFor(transcript), '{not json');
    const attempt = lockSession(transcript);
    expect(attempt.ok).toBe(true);
    if (attempt.ok) attempt.lock.release();
  });

  it('counts holders in one process and removes the file when the last one releases', () => {
    const first = lockSession(transcript);
    const second = lockSession(transcript);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    first.lock.release();
    first.lock.release(); // idempotent
    expect(existsSync(lockPathFor(transcript))).toBe(true);
    second.lock.release();
    expect(existsSync(lockPathFor(transcript))).toBe(false);
  });
});
