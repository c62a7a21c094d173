import { execFile } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { findRunProcesses } from './processTree';

export interface KillTreeOptions {
  /** `NAME=value` in the environment of every process of the run (see runInPty). */
  marker?: string;
  /** Between SIGTERM and SIGKILL: time for programs to clean up (temp files, child builds). */
  graceMs?: number;
  /**
   * Whether the root has already been reaped. Then its pid may be reused by an unrelated
   * process, so its children are no longer followed by pid (the group, the session, the marker
   * and the processes found earlier still are).
   */
  rootExited?: () => boolean;
  /**
   * The first, polite signal; SIGKILL follows after the grace period. SIGTERM by default. A
   * terminal tab sends SIGHUP, the hang-up programs expect when their terminal goes away (an
   * interactive shell ignores SIGTERM, and on SIGHUP it saves its history and hangs up its jobs).
   */
  signal?: NodeJS.Signals;
}

export const DEFAULT_KILL_GRACE_MS = 1500;
const POLL_MS = 100;
const AFTER_KILL_WAIT_MS = 1000;

/**
 * Ends a run's whole process tree and returns once it is gone (or, for a process the kernel
 * cannot kill at once, after a short wait). POSIX: SIGTERM to the process group the pty made
 * (its child leads its own session and group) and to every process found by findRunProcesses,
 * then SIGKILL to whatever is still there after the grace period. Windows: `taskkill /T /F`.
 */
export async function killProcessTree(rootPid: number, options: KillTreeOptions = {}): Promise<void> {
  // A reaped root's pid may be another program's by now: `/T` would end that program's tree.
  if (process.platform === 'win32') return options.rootExited?.() ? undefined : taskkillTree(rootPid);
  const { marker, graceMs = DEFAULT_KILL_GRACE_MS, signal = 'SIGTERM' } = options;
  const rootExited = () => options.rootExited?.() ?? false;
  const find = (known: Iterable<number>) => findRunProcesses(rootPid, { marker, known, includeRootDescendants: !rootExited() });

  // Find first, then signal: once the root dies its children are re-parented and the parent
  // links that lead to them (after a setsid) are lost.
  let known = new Set(await find([]));
  signalAll(rootPid, known, signal, !rootExited());
  for (const deadline = Date.now() + graceMs; Date.now() < deadline;) {
    await delay(POLL_MS);
    const alive = await find(known);
    if (alive.length === 0) return;
    // Anything started since (a trap handler, a respawn) is not spared either.
    const fresh = alive.filter((pid) => !known.has(pid));
    signalAll(rootPid, fresh, signal, false);
    known = new Set([...known, ...alive]);
  }
  for (const deadline = Date.now() + AFTER_KILL_WAIT_MS; ;) {
    const alive = await find(known);
    if (alive.length === 0 || Date.now() >= deadline) return;
    signalAll(rootPid, alive, 'SIGKILL', !rootExited());
    known = new Set([...known, ...alive]);
    await delay(POLL_MS / 2);
  }
}

/**
 * `group`: also signal the root's process group. The negative pid stays valid while any member
 * lives, but once the root is reaped and the group empty the pid may belong to an unrelated
 * process (pids wrap at 32768 on many systems), so callers pass false then; members still alive
 * were found by pgid and are signalled one by one.
 */
function signalAll(rootPid: number, pids: Iterable<number>, signal: NodeJS.Signals, group: boolean): void {
  if (group) sendSignal(-rootPid, signal);
  for (const pid of pids) sendSignal(pid, signal);
}

function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone. EPERM: not ours to kill (a setuid program); nothing more can be done.
  }
}

function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/PID', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}
