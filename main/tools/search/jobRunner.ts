import type { Worker } from 'node:worker_threads';
import type { Job, WorkerMessage } from './protocol';
import { endWorker, markFinishing, returnWorker, takeWorkers, workersFreed } from './workerPool';

/** After a job is answered, how long a worker may take to finish its current file before it is ended. */
const GRACE_MS = 100;

export type StopReason = 'aborted' | 'deadline';

export interface JobControl {
  signal?: AbortSignal;
  /** The job is stopped and answered with what it has after this long. */
  deadlineMs: number;
}

export interface JobHooks {
  /** A message from worker `shard`; return true when the job has its answer. */
  onMessage(shard: number, message: WorkerMessage): boolean;
  /** Called every TICK_MS while the job runs; return true when the job has its answer. */
  onTick?(): boolean;
}

/** How often onTick runs: progress a stuck worker cannot post is read from shared memory. */
const TICK_MS = 10;

let nextId = 1;

/**
 * Runs one job on `shards` workers and settles when the hooks say the answer is complete, every
 * worker is done, the signal aborts or the deadline passes: never later than that, whatever a
 * worker is doing (a worker still busy then is ended). Resolves with why it stopped early, if it did.
 */
export async function runJob(
  shards: number,
  /** Shared with the workers; its first Int32 is set to 1 when the job is answered (they stop). */
  shared: SharedArrayBuffer,
  makeJob: (id: number, shard: number) => Job,
  hooks: JobHooks,
  control: JobControl,
): Promise<StopReason | null> {
  if (control.signal?.aborted) return 'aborted';
  await workersFreed(shards, Math.min(GRACE_MS, control.deadlineMs / 4));
  if (control.signal?.aborted) return 'aborted';
  const id = nextId++;
  const workers = takeWorkers(shards);
  const done = new Set<Worker>();
  let settled = false;

  return new Promise<StopReason | null>((resolve, reject) => {
    const detachers: (() => void)[] = [];
    const settle = (outcome: { reason: StopReason | null } | { error: Error }) => {
      if (settled) return;
      settled = true;
      Atomics.store(new Int32Array(shared), 0, 1);
      clearTimeout(deadline);
      clearInterval(ticker);
      control.signal?.removeEventListener('abort', onAbort);
      for (const worker of workers) if (!done.has(worker)) markFinishing(worker);
      const grace = setTimeout(() => {
        for (const [shard, worker] of workers.entries()) {
          if (done.has(worker)) continue;
          detachers[shard]?.();
          endWorker(worker);
        }
      }, GRACE_MS);
      grace.unref();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.reason);
    };
    const onAbort = () => settle({ reason: 'aborted' });
    control.signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = setTimeout(() => settle({ reason: 'deadline' }), control.deadlineMs);
    const ticker = setInterval(() => {
      if (hooks.onTick?.()) settle({ reason: null });
    }, TICK_MS);

    workers.forEach((worker, shard) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'ready' || message.id !== id) return;
        if (message.type === 'failed') {
          finishWorker();
          settle({ error: Object.assign(new Error(message.message), message.code ? { code: message.code } : {}) });
          return;
        }
        if (message.type === 'done') finishWorker();
        if (settled) return;
        if (hooks.onMessage(shard, message) || done.size === workers.length) settle({ reason: null });
      };
      const onError = (error: Error) => {
        detach();
        done.add(worker);
        endWorker(worker);
        settle({ error: new Error(`The search worker failed: ${error.message}`) });
      };
      const onExit = () => onError(new Error('it exited'));
      const detach = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const finishWorker = () => {
        detach();
        done.add(worker);
        returnWorker(worker);
      };
      detachers[shard] = detach;
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      const job = makeJob(id, shard);
      // Ports between workers are moved to them, not copied.
      const ports = job.type === 'search' ? [...(job.peers ?? []), ...(job.feed ? [job.feed] : [])] : [];
      worker.postMessage(job, ports);
    });
  });
}
