import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { locateWorkerFile, type WorkerFile } from './workerFile';

/** A worker kept after a search, for the next one (starting one costs tens of ms); dropped after this long unused. */
const IDLE_MS = 5 * 60_000;

/** Searches read files in parallel, one worker per core (the main thread mostly waits). */
export const SEARCH_WORKERS = Math.max(1, Math.min(8, availableParallelism()));

let file: WorkerFile | undefined;
const idle = new Set<Worker>();
const timers = new WeakMap<Worker, NodeJS.Timeout>();

function spawn(): Worker {
  file ??= locateWorkerFile();
  const worker = new Worker(file.url, { execArgv: file.execArgv });
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

/** `count` workers for one job: idle ones first, new ones for the rest. */
export function takeWorkers(count: number): Worker[] {
  const taken: Worker[] = [];
  for (const worker of idle) {
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
  void worker.terminate();
}
