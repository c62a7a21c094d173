import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/*
 * One writer per session: while a process has a session open it holds `<transcript>.lock`, a file
 * created with O_EXCL that names the process (pid, its start time, the host). A second process
 * that finds the lock held by a running process does not write to that session.
 *
 * Why not a time-based lock (proper-lockfile refreshes an mtime and calls a lock stale after some
 * seconds): a lock of a killed process must be taken over at once when the person restarts Keel,
 * not after a wait; and a live process whose main thread is busy for longer than the stale time
 * must never lose its lock to another one, which is exactly the corruption this prevents. The
 * owner's pid and start time say both things exactly on one machine, with no timer.
 */

export interface LockOwner {
  pid: number;
  /** The owner's start time as the OS reports it (Linux: /proc/<pid>/stat), so a reused pid is not taken for it. */
  started: string | null;
  host: string;
  /** Unique per lock, so a takeover can tell the stale file it judged from a fresh one. */
  nonce: string;
  at: string;
}

export interface SessionLock {
  readonly path: string;
  /** Idempotent; the file is removed once every holder in this process has released it. */
  release(): void;
}

export type LockAttempt = { ok: true; lock: SessionLock } | { ok: false; owner: LockOwner };

/** A lock file being written right now has no content yet; only one this old without content counts as abandoned. */
const UNWRITTEN_GRACE_MS = 5_000;

/** Locks this process holds, with how many holders each, released on exit. */
const held = new Map<string, { count: number; nonce: string }>();
let exitHookInstalled = false;

export function lockPathFor(transcriptPath: string): string {
  return `${transcriptPath}.lock`;
}

/** Takes the session's lock, or says which live process holds it. A lock of a process that is gone is taken over. */
export function lockSession(transcriptPath: string): LockAttempt {
  const path = lockPathFor(transcriptPath);
  const mine = held.get(path);
  if (mine) {
    mine.count++;
    return { ok: true, lock: handle(path) };
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const self = ownerOfThisProcess();
    if (createExclusive(path, JSON.stringify(self))) {
      held.set(path, { count: 1, nonce: self.nonce });
      installExitHook();
      return { ok: true, lock: handle(path) };
    }
    const found = readLock(path);
    if (found === 'missing') continue; // released between our create and our read: try again
    if (found !== 'unwritten' && found !== 'garbage' && isAlive(found)) return { ok: false, owner: found };
    if (found === 'unwritten' && ageMs(path) < UNWRITTEN_GRACE_MS) {
      return { ok: false, owner: { pid: 0, started: null, host: hostname(), nonce: '', at: new Date().toISOString() } };
    }
    takeOver(path, found);
  }
  const owner = readLock(path);
  return { ok: false, owner: typeof owner === 'object' ? owner : { pid: 0, started: null, host: hostname(), nonce: '', at: new Date().toISOString() } };
}

/** The live process (other than this one) that holds the session, or null. */
export function sessionLockOwner(transcriptPath: string): LockOwner | null {
  const path = lockPathFor(transcriptPath);
  if (held.has(path)) return null;
  const found = readLock(path);
  return typeof found === 'object' && isAlive(found) ? found : null;
}

/** For a person: who has the session open, and what to do. */
export function describeOwner(owner: LockOwner): string {
  if (owner.pid === 0) return 'another Keel process that is opening it right now';
  return owner.host === hostname() ? `another Keel process (pid ${owner.pid})` : `a Keel process on ${owner.host} (pid ${owner.pid})`;
}

function handle(path: string): SessionLock {
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      const entry = held.get(path);
      if (!entry) return;
      if (--entry.count > 0) return;
      held.delete(path);
      removeIfOurs(path, entry.nonce);
    },
  };
}

function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

type ReadResult = LockOwner | 'missing' | 'unwritten' | 'garbage';

function readLock(path: string): ReadResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (text === '') return 'unwritten';
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.nonce === 'string') {
      return {
        pid: value.pid,
        started: typeof value.started === 'string' ? value.started : null,
        host: value.host,
        nonce: value.nonce,
        at: String(value.at ?? ''),
      };
    }
  } catch {
    // fall through: a file that is not ours to read is abandoned
  }
  return 'garbage';
}

/**
 * Moves the stale lock aside under a unique name, then checks that what was moved is the file it
 * judged (another process may have taken over and locked in between); a fresh lock moved by
 * mistake is put back.
 */
function takeOver(path: string, judged: Exclude<ReadResult, 'missing'>): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readLock(aside);
  const sameFile = typeof judged === 'object' ? typeof moved === 'object' && moved.nonce === judged.nonce : typeof moved !== 'object';
  if (!sameFile) {
    try {
      linkSync(aside, path);
    } catch {
      // Someone locked again meanwhile; theirs stands.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function removeIfOurs(path: string, nonce: string): void {
  const found = readLock(path);
  if (typeof found !== 'object' || found.nonce !== nonce) return;
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A clean exit (Ctrl-C in keel web, the window closing) leaves no lock behind; a killed
  // process's lock is recognised as stale by the next one.
  process.once('exit', () => {
    for (const [path, entry] of held) removeIfOurs(path, entry.nonce);
    held.clear();
  });
}

function ownerOfThisProcess(): LockOwner {
  return { pid: process.pid, started: processStart(process.pid), host: hostname(), nonce: randomBytes(8).toString('hex'), at: new Date().toISOString() };
}

/**
 * Whether the lock's owner still runs. A lock from another host cannot be checked from here and
 * counts as held (the message names the host, so the person can remove it).
 */
export function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  // Our own pid on a lock this process does not hold: left by an earlier process that had our pid
  // (containers start Keel with the same small pid every time).
  if (owner.pid === process.pid) return false;
  if (!pidRuns(owner.pid)) return false;
  const started = processStart(owner.pid);
  // Where the start time is known on both sides and differs, the pid was reused by another program.
  return owner.started === null || started === null || owner.started === started;
}

function pidRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where there is no /proc. */
export function processStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}
