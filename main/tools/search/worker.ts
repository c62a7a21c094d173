import { parentPort } from 'node:worker_threads';
import { globMatcher, type GlobMatcher } from '../files/glob';
import { readLines } from '../files/lineReader';
import { walkFilesSync, type WalkResult } from '../files/walk';
import { makePrefilter } from './prefilter';
import type { Job, ListJob, SearchJob, WireMatch, WireNote, WorkerMessage } from './protocol';
import { around, compileSearchRegex } from './regex';
import { scanFile, SEARCHED_LINE_BYTES, type FoundLine, type Matcher } from './scanFile';

/** How often found lines and progress go to the main thread: often enough to stream, rarely enough to cost nothing. */
const FLUSH_MS = 15;

const port = parentPort;
if (!port) throw new Error('The search worker must run in a worker thread.');
const post = (message: WorkerMessage) => port.postMessage(message);

port.on('message', (job: Job) => {
  const run = job.type === 'search' ? search(job) : list(job);
  run.catch((error: unknown) => {
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
  const stop = new Int32Array(job.stop);

  if (job.single) {
    // Asked for by name: read errors are the answer, as before, not a note.
    const found = await searchOne(job.start, matcher, job.limit);
    const matches = found === 'too-large' ? [] : found.map((hit) => ({ index: 0, relative: '', line: hit.line, text: hit.text }));
    const notes: WireNote[] = found === 'too-large' ? [{ index: 0, relative: '', kind: 'too-large' }] : [];
    post({ type: 'progress', id: job.id, walked: 1, matches, notes });
    post({ type: 'done', id: job.id, startIgnored: false });
    return;
  }

  const matchesGlob = globFor(job.glob);
  let matches: WireMatch[] = [];
  let notes: WireNote[] = [];
  let own = 0;
  let walked = 0;
  let lastFlush = performance.now();
  const flush = () => {
    post({ type: 'progress', id: job.id, walked, matches, notes });
    matches = [];
    notes = [];
    lastFlush = performance.now();
  };
  const result: WalkResult = { startIgnored: false };
  for (const file of walkFilesSync(job.root, job.start, result)) {
    const index = walked++;
    if (Atomics.load(stop, 0) !== 0) break;
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
    else {
      for (const hit of found) matches.push({ index, relative: file.relative, line: hit.line, text: hit.text });
      own += found.length;
    }
    if (own >= job.limit) break;
    // The first match goes out at once, so a person sees it while the rest is searched.
    if ((matches.length > 0 && own === matches.length) || performance.now() - lastFlush >= FLUSH_MS) {
      walked = index + 1;
      flush();
    }
  }
  walked = Number.MAX_SAFE_INTEGER;
  flush();
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
