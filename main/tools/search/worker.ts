import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { globMatcher, type GlobMatcher } from '../files/glob';
import { readLines } from '../files/lineReader';
import { walkListedSync } from '../files/listedWalk';
import { walkFilesSync, type WalkResult } from '../files/walk';
import { makePrefilter } from './prefilter';
import {
  FINISHED,
  positionSlot,
  sentSlot,
  type FileBatch,
  type Job,
  type ListJob,
  type SearchJob,
  type WireMatch,
  type WireNote,
  type WorkerMessage,
} from './protocol';
import { makeLineMatcher, type LineMatcher } from './lineMatcher';
import { around } from './regex';
import { scanFile, SEARCHED_LINE_BYTES, shrinkReadBuffer, type FoundLine, type Matcher } from './scanFile';

/** How often notes (unreadable files) and listed paths go to the main thread. */
const FLUSH_MS = 15;
/**
 * Nice value of a search thread: the main thread (nice 0) gets about three times its share of a
 * contended core, while a search on a machine busy with other programs (a build) is not starved.
 */
const SEARCH_NICE = 5;

const port = parentPort;
if (!port) throw new Error('The search worker must run in a worker thread.');
const post = (message: WorkerMessage) => port.postMessage(message);

/**
 * Search threads give way to the main thread (the window, the board, Stop) when the cores are
 * busy. On Linux a thread has its own nice value, set through its thread id; elsewhere (or when
 * refused) the search simply runs at normal priority.
 */
function yieldToMainThread(): void {
  if (process.platform !== 'linux') return;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0 && threadId !== process.pid) setPriority(threadId, SEARCH_NICE);
  } catch {
    // No /proc, or not allowed: normal priority.
  }
}
yieldToMainThread();

port.on('message', (job: Job) => {
  const run = job.type === 'search' ? search(job) : list(job);
  run.finally(shrinkReadBuffer).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    post({ type: 'failed', id: job.id, message: error instanceof Error ? error.message : String(error), ...(code ? { code } : {}) });
  });
});

post({ type: 'ready' });

function globFor(glob: string | undefined): GlobMatcher | undefined {
  if (glob === undefined) return undefined;
  const matcher = globMatcher(glob);
  if ('error' in matcher) throw new Error(matcher.error);
  return matcher;
}

async function search(job: SearchJob): Promise<void> {
  const line = makeLineMatcher(job.pattern, job.ignoreCase);
  if ('error' in line) throw new Error(line.error);
  const matcher: Matcher = { line, prefilter: makePrefilter(job.pattern, job.ignoreCase) };
  const shared = new Int32Array(job.shared);
  // Counted before the message goes, so the main thread can tell when it has them all (see protocol.ts).
  const send = (matches: WireMatch[], notes: WireNote[]) => {
    Atomics.add(shared, sentSlot(job.shard), 1);
    post({ type: 'progress', id: job.id, matches, notes });
  };

  if (job.single) {
    // Asked for by name: read errors are the answer, as before, not a note.
    const found = await searchOne(job.start, matcher, job.limit);
    if (found === 'too-large') send([], [{ index: 0, relative: '', kind: 'too-large' }]);
    else
      send(
        found.map((hit) => ({ index: 0, relative: '', line: hit.line, text: hit.text })),
        [],
      );
    Atomics.store(shared, positionSlot(job.shard), FINISHED);
    post({ type: 'done', id: job.id, startIgnored: false });
    return;
  }

  if (job.shard === 0) await walkAndSearch(job, matcher, send);
  else await searchFed(job, matcher, send);
}

type Send = (matches: WireMatch[], notes: WireNote[]) => void;

/** Searches one walked file of this shard; false when this shard has found all it may. */
class ShardSearch {
  private notes: WireNote[] = [];
  private own = 0;
  private lastNotes = performance.now();

  constructor(
    private readonly matcher: Matcher,
    private readonly limit: number,
    private readonly send: Send,
  ) {}

  async file(index: number, absolute: string, relative: string): Promise<boolean> {
    let found: FoundLine[] | 'too-large';
    try {
      found = await searchOne(absolute, this.matcher, this.limit - this.own);
    } catch {
      // One unreadable file (permissions, deleted meanwhile) should not sink a whole-workspace search.
      this.notes.push({ index, relative, kind: 'unreadable' });
      return true;
    }
    if (found === 'too-large') this.notes.push({ index, relative, kind: 'too-large' });
    else if (found.length > 0) {
      // Posted at once: the main thread hands them out as soon as the files before are done.
      this.send(
        found.map((hit) => ({ index, relative, line: hit.line, text: hit.text })),
        this.notes,
      );
      this.notes = [];
      this.own += found.length;
      if (this.own >= this.limit) return false;
    }
    if (this.notes.length > 0 && performance.now() - this.lastNotes >= FLUSH_MS) this.flush();
    return true;
  }

  flush(): void {
    if (this.notes.length === 0) return;
    this.send([], this.notes);
    this.notes = [];
    this.lastNotes = performance.now();
  }
}

/** Files walked between two batches to the other shards: few messages, yet they are never idle long. */
const BATCH_WALKED = 48;

/** Shard 0: walks the tree (the only walk of the job), searches its share and hands the others theirs. */
async function walkAndSearch(job: SearchJob, matcher: Matcher, send: Send): Promise<void> {
  const shared = new Int32Array(job.shared);
  const peers = job.peers ?? [];
  const mine = new ShardSearch(matcher, job.limit, send);
  let batches: FileBatch['files'][] = peers.map(() => []);
  let walked = 0;
  let sinceBatch = 0;
  const handOut = (end: number, last: boolean) => {
    peers.forEach((peer, k) => peer.postMessage({ files: batches[k] ?? [], end, last } satisfies FileBatch));
    batches = peers.map(() => []);
    sinceBatch = 0;
  };
  const result: WalkResult = { startIgnored: false };
  try {
    const matchesGlob = globFor(job.glob);
    const files =
      job.listed !== undefined
        ? walkListedSync(job.root, job.start, job.listed.split('\0'), result, job.hidden)
        : walkFilesSync(job.root, job.start, result, job.hidden);
    for (const file of files) {
      const index = walked++;
      if (Atomics.load(shared, 0) !== 0) break;
      Atomics.store(shared, positionSlot(0), index);
      if (++sinceBatch >= BATCH_WALKED) handOut(index, false);
      if (matchesGlob && !matchesGlob(file.fromStart)) continue;
      const shard = shardOf(file.relative, job.shards, job.listed === undefined);
      if (shard !== 0) {
        (batches[shard - 1] as FileBatch['files']).push({ index, absolute: file.absolute, relative: file.relative });
        continue;
      }
      if (!(await mine.file(index, file.absolute, file.relative))) break;
    }
  } finally {
    // Whatever ended the walk (done, stopped, an error), the other shards finish what they were given.
    handOut(walked, true);
    for (const peer of peers) peer.close();
  }
  mine.flush();
  Atomics.store(shared, positionSlot(0), FINISHED);
  post({ type: 'done', id: job.id, startIgnored: result.startIgnored });
}

/** Shard k > 0: searches the files shard 0 hands it, in walk order. */
function searchFed(job: SearchJob, matcher: Matcher, send: Send): Promise<void> {
  const feed = job.feed;
  if (!feed) throw new Error('A search shard other than 0 needs its feed of files.');
  const shared = new Int32Array(job.shared);
  const mine = new ShardSearch(matcher, job.limit, send);
  const queue: FileBatch[] = [];
  let running = false;
  let finished = false;
  return new Promise<void>((resolve, reject) => {
    const finish = () => {
      finished = true;
      feed.close();
      mine.flush();
      Atomics.store(shared, positionSlot(job.shard), FINISHED);
      post({ type: 'done', id: job.id, startIgnored: false });
      resolve();
    };
    const run = async () => {
      running = true;
      while (queue.length > 0 && !finished) {
        const batch = queue.shift() as FileBatch;
        for (const file of batch.files) {
          if (Atomics.load(shared, 0) !== 0) return finish();
          Atomics.store(shared, positionSlot(job.shard), file.index);
          if (!(await mine.file(file.index, file.absolute, file.relative))) return finish();
        }
        if (batch.last) return finish();
        Atomics.store(shared, positionSlot(job.shard), batch.end);
      }
      running = false;
    };
    feed.on('message', (batch: FileBatch) => {
      queue.push(batch);
      if (!running && !finished) run().catch(reject);
    });
  });
}

async function searchOne(absolute: string, matcher: Matcher, limit: number): Promise<FoundLine[] | 'too-large'> {
  const scanned = scanFile(absolute, matcher, limit);
  switch (scanned.kind) {
    case 'searched':
      return scanned.found;
    case 'skipped':
      return [];
    case 'too-large':
      return 'too-large';
    case 'huge':
      return streamHuge(absolute, matcher.line, limit);
  }
}

/** A file too large to hold: streamed line by line through one small buffer, as read_file does. */
async function streamHuge(absolute: string, matcher: LineMatcher, limit: number): Promise<FoundLine[] | 'too-large'> {
  const found: FoundLine[] = [];
  const outcome = await readLines(absolute, {
    maxLineBytes: SEARCHED_LINE_BYTES,
    wants: () => true,
    onLine: (line) => {
      const match = matcher.find(line.text);
      if (match) found.push({ line: line.number, text: around(line.text, match.index, match.length) });
      return found.length < limit;
    },
  });
  return outcome.kind === 'too-large' ? 'too-large' : found;
}

/**
 * FNV-1a of the path spreads files over shards without coordination. Shard 0 also walks the tree
 * (about as long as reading a third of the files, measured on the bench tree), so it then gets one
 * share of 3·shards − 2 and every other shard three; walking listed files costs next to nothing,
 * so then every shard gets an equal share.
 */
function shardOf(relative: string, shards: number, walksTree: boolean): number {
  if (shards === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < relative.length; i++) hash = Math.imul(hash ^ relative.charCodeAt(i), 0x01000193);
  if (!walksTree) return (hash >>> 0) % shards;
  const share = (hash >>> 0) % (3 * shards - 2);
  return share === 0 ? 0 : 1 + ((share - 1) % (shards - 1));
}

async function list(job: ListJob): Promise<void> {
  const matchesGlob = globFor(job.glob);
  const stop = new Int32Array(job.stop);
  const result: WalkResult = { startIgnored: false };
  let paths: string[] = [];
  let count = 0;
  let lastFlush = performance.now();
  for (const file of walkFilesSync(job.root, job.start, result, job.hidden)) {
    if (Atomics.load(stop, 0) !== 0) break;
    if (matchesGlob && !matchesGlob(file.fromStart)) continue;
    paths.push(file.relative);
    if (++count >= job.limit) break;
    if (performance.now() - lastFlush >= FLUSH_MS) {
      post({ type: 'paths', id: job.id, paths });
      paths = [];
      lastFlush = performance.now();
    }
  }
  post({ type: 'paths', id: job.id, paths });
  post({ type: 'done', id: job.id, startIgnored: result.startIgnored });
}
