import type { MessagePort } from 'node:worker_threads';

/** Messages between the main thread and a search worker (structured-clone data only). */

export interface SearchJob {
  type: 'search';
  id: number;
  /** Real workspace root and real start (a folder, or one file when `single`). */
  root: string;
  start: string;
  single: boolean;
  pattern: string;
  ignoreCase: boolean;
  glob?: string;
  /** Real paths the walk passes over: the secrets inside the workspace. */
  hidden?: string[];
  /**
   * Shard 0 walks the tree once and searches its share of the files; it hands every other shard
   * its share through `peers[shard - 1]`, in walk order (see FileBatch). Shard k > 0 reads its
   * files from `feed`.
   */
  shard: number;
  shards: number;
  peers?: MessagePort[];
  feed?: MessagePort;
  /** Matching lines after which this worker may stop: the caller's cap plus one, to know there are more. */
  limit: number;
  /**
   * For shard 0: the only files that can match, relative to start and separated by NUL (one
   * string is copied to the worker far faster than thousands); it walks just those
   * (walkListedSync) instead of the whole tree.
   */
  listed?: string;
  /**
   * Int32Array: [0] is set to 1 by the main thread when it needs nothing more; for shard k,
   * [1 + 2k] counts the messages it has posted and [2 + 2k] is the walk position it has reached
   * (every file of its shard before it has been searched and its matches posted). Positions are
   * shared memory rather than messages so a worker stuck in one file's regex does not hold back
   * the matches of the files before it.
   */
  shared: SharedArrayBuffer;
}

/** Index in SearchJob.shared of shard k's posted-message count; its walk position is the next one. */
export const sentSlot = (shard: number) => 1 + 2 * shard;
export const positionSlot = (shard: number) => 2 + 2 * shard;
/** The walk position of a shard that has finished. */
export const FINISHED = 0x7fffffff;

export interface ListJob {
  type: 'list';
  id: number;
  root: string;
  start: string;
  glob?: string;
  /** Real paths the walk passes over: the secrets inside the workspace. */
  hidden?: string[];
  /** Paths after which the walk stops: the caller's cap plus one, to know there are more. */
  limit: number;
  stop: SharedArrayBuffer;
}

export type Job = SearchJob | ListJob;

/**
 * From the walking shard to another: the files of that shard walked before walk position `end`
 * that were not in an earlier batch. `last` is the final batch (the walk is over or stopped).
 */
export interface FileBatch {
  files: { index: number; absolute: string; relative: string }[];
  end: number;
  last: boolean;
}

export interface WireMatch {
  /** Position of the file in the walk, the same in every worker: results are merged in this order. */
  index: number;
  relative: string;
  line: number;
  text: string;
}

export interface WireNote {
  index: number;
  relative: string;
  kind: 'too-large' | 'unreadable';
}

export type WorkerMessage =
  /** Posted once when the worker's code has loaded, before any job. */
  | { type: 'ready' }
  | {
      type: 'progress';
      id: number;
      matches: WireMatch[];
      notes: WireNote[];
    }
  | { type: 'paths'; id: number; paths: string[] }
  | { type: 'done'; id: number; startIgnored: boolean }
  /** The job could not run (the single file cannot be read, a bad glob): `code` is the errno code when there is one. */
  | { type: 'failed'; id: number; message: string; code?: string };
