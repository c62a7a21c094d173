import { MessageChannel } from 'node:worker_threads';
import { positionSlot, sentSlot, type WireMatch, type WireNote } from './protocol';
import { runJob, type StopReason } from './jobRunner';
import { listCandidates } from './ripgrep';
import { SEARCH_WORKERS, warmSearchWorkers } from './workerPool';

export interface SearchRequest {
  /** Real workspace root. */
  root: string;
  /** Real folder to search, or one file when `single`. */
  start: string;
  single: boolean;
  /** A JavaScript regular expression, already known to compile (see compileSearchRegex). */
  pattern: string;
  ignoreCase: boolean;
  glob?: string;
  /** Real paths never searched: the secrets inside the workspace (see secretsWithin). */
  hidden?: readonly string[];
  maxResults: number;
  /**
   * Whether ripgrep, where it is on the PATH, may pick the files worth searching (see ripgrep.ts);
   * the answer is the same either way (default true).
   */
  ripgrep?: boolean;
}

export interface FoundMatch {
  /** Workspace-relative; '' for a single-file search. */
  relative: string;
  line: number;
  text: string;
}

export interface SearchOutcome {
  /** In walk order (path order), at most maxResults. */
  matches: FoundMatch[];
  /** There were more than maxResults. */
  more: boolean;
  tooLarge: string[];
  unreadable: string[];
  /** Set when the search was cut short: what was found until then is in `matches`. */
  stopped: StopReason | null;
}

export interface SearchControl {
  signal?: AbortSignal;
  deadlineMs: number;
  /** Each match as soon as it is known to be among the first maxResults, in order. */
  onMatch?: (match: FoundMatch) => void;
}

/**
 * Searches files in worker threads, so the main thread (the window, the board, Stop, Ctrl-C) never
 * waits on a file or a regex. Workers share the files of one walk between them; their matches are
 * merged back into walk order and handed out as soon as every file before them has been searched.
 */
export async function searchFiles(request: SearchRequest, control: SearchControl): Promise<SearchOutcome> {
  let listed: string | undefined;
  let deadlineMs = control.deadlineMs;
  if (!request.single && request.ripgrep !== false) {
    const started = performance.now();
    // More files than matches wanted: each likely holds one, and the walk's first files answer soonest.
    const candidates = await listCandidates(request, { ...control, enough: request.maxResults });
    if (candidates.kind === 'stopped') return { matches: [], more: false, tooLarge: [], unreadable: [], stopped: candidates.reason };
    if (candidates.kind === 'listed') {
      // No file holds the literal: nothing can match, and no worker needs to start.
      if (candidates.files.length === 0) return { matches: [], more: false, tooLarge: [], unreadable: [], stopped: null };
      listed = candidates.files.join('\0');
    }
    // The deadline is the whole search's, ripgrep's time included.
    deadlineMs = Math.max(1, deadlineMs - (performance.now() - started));
  }
  const shards = request.single ? 1 : SEARCH_WORKERS;
  const shared = new SharedArrayBuffer(4 * (1 + 2 * shards));
  const slots = new Int32Array(shared);
  const received: number[] = new Array<number>(shards).fill(0);
  /** Per shard, the walk position known to have all its matches here (see protocol.ts). */
  const passed: number[] = new Array<number>(shards).fill(0);
  let pending: WireMatch[] = [];
  const notes: WireNote[] = [];
  const matches: FoundMatch[] = [];
  let more = false;

  /** Hands out every match before the point all workers have passed; true once the answer is complete. */
  const drain = (): boolean => {
    for (let shard = 0; shard < shards; shard++) {
      // Position first, then the count of messages posted before it: when all of those have
      // arrived, every match before the position is here.
      const position = Atomics.load(slots, positionSlot(shard));
      if (Atomics.load(slots, sentSlot(shard)) === received[shard]) passed[shard] = Math.max(passed[shard] as number, position);
    }
    const before = Math.min(...passed);
    pending.sort((a, b) => a.index - b.index || a.line - b.line);
    let taken = 0;
    while (taken < pending.length && (pending[taken] as WireMatch).index < before) {
      if (matches.length === request.maxResults) break;
      const { relative, line, text } = pending[taken] as WireMatch;
      const match = { relative, line, text };
      matches.push(match);
      control.onMatch?.(match);
      taken++;
    }
    pending = pending.slice(taken);
    // Everything not handed out comes after the first maxResults.
    if (matches.length === request.maxResults && pending.length > 0) more = true;
    return more;
  };

  // One walk, by shard 0, feeding the others: a channel from it to each of them.
  const channels = Array.from({ length: shards - 1 }, () => new MessageChannel());
  const stopped = await runJob(
    shards,
    shared,
    (id, shard) => ({
      type: 'search',
      id,
      root: request.root,
      start: request.start,
      single: request.single,
      pattern: request.pattern,
      ignoreCase: request.ignoreCase,
      ...(request.glob !== undefined ? { glob: request.glob } : {}),
      ...(request.hidden?.length ? { hidden: [...request.hidden] } : {}),
      shard,
      shards,
      ...(shard === 0 ? { peers: channels.map((channel) => channel.port1) } : { feed: (channels[shard - 1] as MessageChannel).port2 }),
      limit: request.maxResults + 1,
      shared,
      ...(listed && shard === 0 ? { listed } : {}),
    }),
    {
      onMessage(shard, message) {
        if (message.type === 'progress') {
          received[shard] = (received[shard] as number) + 1;
          pending.push(...message.matches);
          notes.push(...message.notes);
        }
        return drain();
      },
      onTick: drain,
    },
    { ...control, deadlineMs },
  );
  notes.sort((a, b) => a.index - b.index);
  const named = (kind: WireNote['kind']) => notes.filter((note) => note.kind === kind).map((note) => note.relative);
  return { matches, more, tooLarge: named('too-large'), unreadable: named('unreadable'), stopped };
}

export interface ListRequest {
  root: string;
  start: string;
  glob?: string;
  /** Real paths never listed: the secrets inside the workspace (see secretsWithin). */
  hidden?: readonly string[];
  /** Paths wanted at most. */
  maxPaths: number;
}

export interface ListOutcome {
  /** Workspace-relative, in walk order (sorted by name, depth first). */
  paths: string[];
  /** There were more than maxPaths. */
  cut: boolean;
  startIgnored: boolean;
  stopped: StopReason | null;
}

/**
 * The workspace's files under `start` (the same .gitignore rules as search_text), walked in a
 * worker. This is the path index list_files and @-mention completion use.
 */
export async function listPaths(
  request: ListRequest,
  control: { signal?: AbortSignal; deadlineMs: number; onPaths?: (paths: string[]) => void },
): Promise<ListOutcome> {
  const paths: string[] = [];
  let startIgnored = false;
  const stop = new SharedArrayBuffer(4);
  const stopped = await runJob(
    1,
    stop,
    (id) => ({
      type: 'list',
      id,
      root: request.root,
      start: request.start,
      ...(request.glob !== undefined ? { glob: request.glob } : {}),
      ...(request.hidden?.length ? { hidden: [...request.hidden] } : {}),
      limit: request.maxPaths + 1,
      stop,
    }),
    {
      onMessage(_shard, message) {
        if (message.type === 'paths') {
          const room = request.maxPaths + 1 - paths.length;
          const taken = message.paths.slice(0, room);
          paths.push(...taken);
          control.onPaths?.(taken.slice(0, Math.max(0, request.maxPaths - (paths.length - taken.length))));
        } else if (message.type === 'done') {
          startIgnored = message.startIgnored;
        }
        // The worker stops at maxPaths + 1 by itself; its `done` (with startIgnored) completes the job.
        return false;
      },
    },
    control,
  );
  // A listing usually comes first in a task: the search that follows finds its workers started.
  warmSearchWorkers();
  const cut = paths.length > request.maxPaths;
  return { paths: cut ? paths.slice(0, request.maxPaths) : paths, cut, startIgnored, stopped };
}
