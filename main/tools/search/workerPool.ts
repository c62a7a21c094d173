import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkerMessage } from './protocol';
import { locateWorkerFile, type WorkerFile } from './workerFile';

/** A worker kept after a search, for the next one (starting one costs tens of ms); dropped after this long unused. */
const IDLE_MS = 5 * 60_000;

/** Searches read files in parallel, one worker per core (the main thread mostly waits). */
export const SEARCH_WORKERS = Math.max(1, Math.min(8, availableParallelism()));

let file: WorkerFile | undefined;
const idle = new Set<Worker>();
/** Workers of an answered job still finishing their current file: idle again within moments. */
const finishing = new Set<Worker>();
let onFinished: (() => void)[] = [];
const timers = new WeakMap<Worker, NodeJS.Timeout>();
/** Workers whose code has loaded (they said `ready`): a job's walking shard goes to one of these first. */
const loaded = new WeakSet<Worker>();

function spawn(): Worker {
  file ??= locateWorkerFile();
  const worker = new Worker(file.url, { execArgv: file.execArgv });
  const onReady = (message: WorkerMessage) => {
    if (message.type !== 'ready') return;
    loaded.add(worker);
    worker.off('message', onReady);
  };
  worker.on('message', onReady);
  // A worker that dies on its own (out of memory) must not take the process with it.
  worker.on('error', () => idle.delete(worker));
  worker.on('exit', () => idle.delete(worker));
  return worker;
}

/**
 * Starts workers ahead of the first search (a worker's start costs tens to hundreds of ms on a busy
 * machine), without holding the process open. Call when a workspace is opened or listed.
 */
export function warmSearchWorkers(count: number = SEARCH_WORKERS): void {
  try {
    while (idle.size < Math.min(count, SEARCH_WORKERS)) returnWorker(spawn());
  } catch {
    // No built worker: the search itself will say so.
  }
}

/** A worker of an answered job that has not said it is done yet. */
export function markFinishing(worker: Worker): void {
  finishing.add(worker);
}

function finished(worker: Worker): void {
  if (!finishing.delete(worker)) return;
  const waiting = onFinished;
  onFinished = [];
  for (const wake of waiting) wake();
}

/**
 * Resolves when `count` workers are idle, or none of those still finishing an answered job could
 * make them so, or after `waitMs`: a search right after another (a capped one answers before its
 * workers have stopped) takes the workers that are about to be free instead of starting new ones.
 */
export async function workersFreed(count: number, waitMs: number): Promise<void> {
  const until = performance.now() + waitMs;
  while (idle.size < Math.min(count, SEARCH_WORKERS) && finishing.size > 0) {
    const left = until - performance.now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      onFinished.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/**
 * `count` workers for one job: idle ones first, new ones for the rest, those whose code has loaded
 * before those still starting (the first, the walking shard, holds up the whole job until it runs).
 */
export function takeWorkers(count: number): Worker[] {
  const taken: Worker[] = [];
  const ordered = [...idle].sort((a, b) => Number(loaded.has(b)) - Number(loaded.has(a)));
  for (const worker of ordered) {
    if (taken.length === count) break;
    idle.delete(worker);
    clearTimeout(timers.get(worker));
    taken.push(worker);
  }
  while (taken.length < count) taken.push(spawn());
  // While a job runs, its workers keep the process alive (keel run waits for the result).
  for (const worker of taken) worker.ref();
  return taken;
}

/** A worker that finished its job cleanly: kept for the next one, without holding the process open. */
export function returnWorker(worker: Worker): void {
  worker.unref();
  // Kept idle before anyone waiting on it wakes.
  try {
    keep(worker);
  } finally {
    finished(worker);
  }
}

function keep(worker: Worker): void {
  // Workers started while others finished a stopped job's last file: only a pool's worth is kept.
  if (idle.size >= SEARCH_WORKERS) {
    void worker.terminate();
    return;
  }
  idle.add(worker);
  const timer = setTimeout(() => {
    idle.delete(worker);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  timers.set(worker, timer);
}

/** A worker that may be stuck (a regex that backtracks for minutes): ended, never reused. */
export function endWorker(worker: Worker): void {
  idle.delete(worker);
  finished(worker);
  void worker.terminate();
}
