import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { globMatcher, type GlobMatcher } from '../files/glob';
import { readLines } from '../files/lineReader';
import { walkFilesSync, type WalkResult } from '../files/walk';
import { makePrefilter } from './prefilter';
import { FINISHED, positionSlot, sentSlot, type Job, type ListJob, type SearchJob, type WireMatch, type WireNote, type WorkerMessage } from './protocol';
import { around, compileSearchRegex } from './regex';
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

function globFor(glob: string | undefined): GlobMatcher | undefined {
  if (glob === undefined) return undefined;
  const matcher = globMatcher(glob);
  if ('error' in matcher) throw new Error(matcher.error);
  return matcher;
}

async function search(job: SearchJob): Promise<void> {
  const regex = compileSearchRegex(job.pattern, job.ignoreCase);
  if ('error' in regex) throw new Error(regex.error);
  const matcher: Matcher = { regex, prefilter: makePrefilter(job.pattern, job.ignoreCase) };
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

  const matchesGlob = globFor(job.glob);
  let notes: WireNote[] = [];
  let own = 0;
  let walked = 0;
  let lastNotes = performance.now();
  const result: WalkResult = { startIgnored: false };
  for (const file of walkFilesSync(job.root, job.start, result)) {
    const index = walked++;
    if (Atomics.load(shared, 0) !== 0) break;
    Atomics.store(shared, positionSlot(job.shard), index);
    if (matchesGlob && !matchesGlob(file.fromStart)) continue;
    if (shardOf(file.relative, job.shards) !== job.shard) continue;
    let found: FoundLine[] | 'too-large';
    try {
      found = await searchOne(file.absolute, matcher, job.limit - own);
    } catch {
      // One unreadable file (permissions, deleted meanwhile) should not sink a whole-workspace search.
      notes.push({ index, relative: file.relative, kind: 'unreadable' });
      continue;
    }
    if (found === 'too-large') notes.push({ index, relative: file.relative, kind: 'too-large' });
    else if (found.length > 0) {
      // Posted at once: the main thread hands them out as soon as the files before are done.
      send(
        found.map((hit) => ({ index, relative: file.relative, line: hit.line, text: hit.text })),
        notes,
      );
      notes = [];
      own += found.length;
      if (own >= job.limit) break;
    }
    if (notes.length > 0 && performance.now() - lastNotes >= FLUSH_MS) {
      send([], notes);
      notes = [];
      lastNotes = performance.now();
    }
  }
  if (notes.length > 0) send([], notes);
  Atomics.store(shared, positionSlot(job.shard), FINISHED);
  post({ type: 'done', id: job.id, startIgnored: result.startIgnored });
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
      return streamHuge(absolute, matcher.regex, limit);
  }
}

/** A file too large to hold: streamed line by line through one small buffer, as read_file does. */
async function streamHuge(absolute: string, regex: RegExp, limit: number): Promise<FoundLine[] | 'too-large'> {
  const found: FoundLine[] = [];
  const outcome = await readLines(absolute, {
    maxLineBytes: SEARCHED_LINE_BYTES,
    wants: () => true,
    onLine: (line) => {
      const match = regex.exec(line.text);
      if (match) found.push({ line: line.number, text: around(line.text, match.index, match[0].length) });
      return found.length < limit;
    },
  });
  return outcome.kind === 'too-large' ? 'too-large' : found;
}

/** FNV-1a of the path: spreads files over workers without any coordination between them. */
function shardOf(relative: string, shards: number): number {
  if (shards === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < relative.length; i++) hash = Math.imul(hash ^ relative.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

async function list(job: ListJob): Promise<void> {
  const matchesGlob = globFor(job.glob);
  const stop = new Int32Array(job.stop);
  const result: WalkResult = { startIgnored: false };
  let paths: string[] = [];
  let count = 0;
  let lastFlush = performance.now();
  for (const file of walkFilesSync(job.root, job.start, result)) {
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
