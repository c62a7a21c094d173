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
  /** This worker searches the walked files whose path hashes to `shard` of `shards`. */
  shard: number;
  shards: number;
  /** Matching lines after which this worker may stop: the caller's cap plus one, to know there are more. */
  limit: number;
  /** Int32Array[1]: set to 1 by the main thread when it needs nothing more. */
  stop: SharedArrayBuffer;
}

export interface ListJob {
  type: 'list';
  id: number;
  root: string;
  start: string;
  glob?: string;
  /** Paths after which the walk stops: the caller's cap plus one, to know there are more. */
  limit: number;
  stop: SharedArrayBuffer;
}

export type Job = SearchJob | ListJob;

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
  | {
      type: 'progress';
      id: number;
      /** Files walked so far: every file of this worker's shard before this position has been searched. */
      walked: number;
      matches: WireMatch[];
      notes: WireNote[];
    }
  | { type: 'paths'; id: number; paths: string[] }
  | { type: 'done'; id: number; startIgnored: boolean }
  /** The job could not run (the single file cannot be read, a bad glob): `code` is the errno code when there is one. */
  | { type: 'failed'; id: number; message: string; code?: string };
