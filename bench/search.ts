import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { listFilesTool } from '../main/tools/files/listFiles';
import { searchText } from '../main/tools/files/searchText';
import type { ToolResult } from '../main/tools/types';
import { startScriptedAnthropic, reply, text, toolUse } from '../test/support/scriptedAnthropic';
import { connectKeelSocket, type KeelSocket } from '../test/e2e/support/keelSocket';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { sized } from './quick';
import { benchTree } from './searchTree';
import { heading, percentile } from './stats';

const RUNS = sized(5, 2);
/** How long the event-loop delay is sampled, idle and during scans. */
const LOOP_MS = sized(3000, 1000);
/**
 * Stop comes this long into a full no-match scan: with ripgrep picking the files, the whole tree's
 * takes about 55 ms on 2 idle cores (the quick tree's about 10 ms).
 */
const STOP_AFTER_MS = sized(20, 3);

const hasRg = spawnSync('rg', ['--version']).status === 0;

function timeRg(args: string[], cwd: string): { ms: number; lines: number } {
  const started = performance.now();
  const result = spawnSync('rg', [...args, '.'], { cwd, maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  return { ms, lines: result.stdout.split('\n').filter(Boolean).length };
}

async function timeTool(run: () => Promise<ToolResult>): Promise<{ ms: number; result: ToolResult }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

/**
 * search_text and list_files on a large tree beside ripgrep on the same tree (ripgrep searching
 * all files with the same ignore rules: --hidden --no-require-git), medians of RUNS runs taken
 * alternately; the time Stop takes to answer; the board's socket round trip idle and during scans.
 */
export async function benchSearch(): Promise<void> {
  heading('Search (search_text, list_files) vs ripgrep');
  const tree = benchTree();
  const workspace = tree.root;
  console.log(`tree: ${tree.files.toLocaleString('en')} files, ${(tree.bytes / 1e6).toFixed(0)} MB (${tree.root}); ${RUNS} runs each, medians`);
  const context = { workspace, signal: new AbortController().signal };
  const rgBase = ['--hidden', '--no-require-git', '-n', '--no-heading'];

  const cases: { label: string; input: { pattern: string; glob?: string; max_results?: number }; rg: string[] }[] = [
    { label: 'no match', input: { pattern: 'zqxjv_never_here' }, rg: [...rgBase, 'zqxjv_never_here'] },
    { label: 'common literal (max_results 2000)', input: { pattern: 'TODO', max_results: 2000 }, rg: [...rgBase, 'TODO'] },
    {
      label: 'regex + glob *.js',
      input: { pattern: 'class\\s+\\w+Handler\\b', glob: '*.js', max_results: 2000 },
      rg: [...rgBase, '-g', '*.js', 'class\\s+\\w+Handler\\b'],
    },
  ];
  await searchText(cases[0]!.input, context); // Warm-up: starts the workers and the page cache.
  for (const item of cases) {
    const ours: number[] = [];
    const theirs: number[] = [];
    let found = 0;
    let rgLines = 0;
    for (let run = 0; run < RUNS; run++) {
      const mine = await timeTool(() => searchText(item.input, context));
      ours.push(mine.ms);
      found = mine.result.content.split('\n').filter((line) => /^[^(].*:\d+: /.test(line)).length;
      if (hasRg) {
        const rg = timeRg(item.rg, workspace);
        theirs.push(rg.ms);
        rgLines = rg.lines;
      }
    }
    const rgPart = hasRg
      ? `; rg ${fmt(median(theirs))} (${rgLines} lines, uncapped); ratio ${(median(ours) / median(theirs)).toFixed(2)}×`
      : '; rg not installed';
    console.log(`search_text ${item.label}: ${fmt(median(ours))} (${found} lines)${rgPart}`);
  }

  const listOurs: number[] = [];
  const listTheirs: number[] = [];
  let listed = 0;
  for (let run = 0; run < RUNS; run++) {
    const mine = await timeTool(() => listFilesTool.run({ pattern: '**/*.md' }, context));
    listOurs.push(mine.ms);
    listed = mine.result.content.split('\n').length;
    if (hasRg) listTheirs.push(timeRg(['--hidden', '--no-require-git', '--files', '-g', '*.md'], workspace).ms);
  }
  const listRg = hasRg ? `; rg --files -g '*.md' ${fmt(median(listTheirs))}; ratio ${(median(listOurs) / median(listTheirs)).toFixed(2)}×` : '';
  console.log(`list_files **/*.md: ${fmt(median(listOurs))} (${listed} lines, capped at 1000)${listRg}`);

  // Stop: how long after abort() the search answers, for a full no-match scan stopped midway.
  const stops: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const controller = new AbortController();
    const searching = searchText({ pattern: 'zqxjv_never_here' }, { workspace, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, STOP_AFTER_MS));
    const started = performance.now();
    controller.abort();
    const result = await searching;
    // A search that ended before Stop says nothing about Stop: it is not counted.
    if (result.content.includes('Stopped')) stops.push(performance.now() - started);
    else console.log(`  (run ${run}: the search finished before Stop)`);
  }
  if (stops.length === 0) throw new Error(`every search finished within ${STOP_AFTER_MS} ms, before Stop: nothing measured Stop`);
  console.log(`Stop during a full scan → answered: median ${fmt(median(stops))}, max ${fmt(Math.max(...stops))} (goal ≤ 100 ms)`);
  // A catastrophic regex: the deadline answers, the main thread never waits.
  const catastrophic = join(tmpdir(), 'keel-bench-catastrophic');
  mkdirSync(catastrophic, { recursive: true });
  writeFileSync(join(catastrophic, 'a.txt'), `${'a'.repeat(40)}!\n`);
  const deadline = await timeTool(() =>
    searchText({ pattern: '(a+)+$' }, { workspace: catastrophic, signal: new AbortController().signal }, { deadlineMs: 500 }),
  );
  console.log(`(a+)+$ on 40 a's and a '!', deadline 500 ms: answered in ${fmt(deadline.ms)}: ${JSON.stringify(deadline.result.content.slice(0, 80))}…`);
  await benchEventLoopDuringScan(workspace);
  await benchBoardDuringScan(workspace, { pattern: 'zqxjv_never_here' }, 'full no-match scans of the tree by search_text');
  await benchBoardDuringScan(
    workspace,
    { pattern: 'zqxjv_never_here', path: 'pkg0/mod1/src/file1.ts' },
    'one-file searches (the agent loop alone, for comparison)',
  );
  // The other figures stand on their own, so they were printed; the search's own have no baseline.
  if (!hasRg) throw new Error('ripgrep (rg) is not on the PATH, so search_text and list_files had no baseline (apt-get install ripgrep)');
}

/** The main thread's event-loop delay in this process, idle and while search_text scans the tree over and over. */
async function benchEventLoopDuringScan(workspace: string): Promise<void> {
  const context = { workspace, signal: new AbortController().signal };
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await new Promise((resolve) => setTimeout(resolve, LOOP_MS));
  idle.disable();
  const busy = monitorEventLoopDelay({ resolution: 1 });
  busy.enable();
  const started = performance.now();
  let scans = 0;
  for (; performance.now() - started < LOOP_MS; scans++) await searchText({ pattern: 'zqxjv_never_here' }, context);
  busy.disable();
  const summary = (h: IntervalHistogram) =>
    `p50 ${(h.percentile(50) / 1e6).toFixed(2)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(2)} ms, max ${(h.max / 1e6).toFixed(2)} ms`;
  console.log(`event-loop delay of this process, idle ${LOOP_MS / 1000} s: ${summary(idle)}; during ${scans} full scans: ${summary(busy)}`);
}

/** More searches than the edits can outlast; each phase's task is stopped when its edits are done. */
const SCANS = 5_000;
/** Searches that must run during each scanning phase, so its edits meet more than one. */
const MIN_SCANS = sized(3, 2);
/** Idle and scanning phases alternate this many times, so both meet the same load of the machine. */
const ROUNDS = sized(4, 2);
const EDITS_PER_PHASE = sized(40, 10);
const WARMUP_EDITS = 10;
/** Between two edits, in both phases (a person's edits come every so often, not back to back). */
const EDIT_GAP_MS = 15;
const KEY = 'sk-bench-search-0000000000';

/**
 * The board's edit round trip through `keel web` (plan.edit over its socket → validated and stored
 * in main → answered), idle and while the agent runs full no-match scans of the tree with
 * search_text one after another. Idle and scanning phases alternate ROUNDS times in one keel web,
 * with the same gap between edits in both, so the ratio compares like with like under the same
 * load (a first idle phase alone met a colder process, and back-to-back edits a warmer one).
 * Needs `npm run build`.
 */
async function benchBoardDuringScan(workspace: string, search: { pattern: string; path?: string }, label: string): Promise<void> {
  const model = await startScriptedAnthropic({
    apiKey: KEY,
    script: [...Array.from({ length: SCANS }, () => reply(toolUse('search_text', search))), reply(text('Done.'))],
  });
  const home = tempDir('bench-search-home');
  const keel = await startKeelWeb({ keelHome: home.path, workspace, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.baseURL } });
  const socket = await connectKeelSocket(keel.url);
  try {
    const seeded = await socket.request('plan.edit', { baseVersion: 0, items: [{ content: 'Toggle this step' }, { content: 'Read the code' }] });
    if (!seeded.ok) throw new Error(seeded.error.message);
    let plan = seeded.value;
    const edit = async (): Promise<number> => {
      const items = plan.items.map((item, i) => ({
        id: item.id,
        content: item.content,
        status: i === 0 ? (item.status === 'completed' ? 'pending' : 'completed') : item.status,
      }));
      const started = performance.now();
      const answer = await socket.request('plan.edit', { baseVersion: plan.version, items });
      const ms = performance.now() - started;
      if (!answer.ok) throw new Error(answer.error.message);
      plan = answer.value;
      await new Promise((resolve) => setTimeout(resolve, EDIT_GAP_MS));
      return ms;
    };
    for (let i = 0; i < WARMUP_EDITS; i++) await edit();
    const idle: number[] = [];
    const busy: number[] = [];
    let scansDuring = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < EDITS_PER_PHASE; i++) idle.push(await edit());
      const sent = await socket.request('task.send', { text: 'Scan the tree again and again.' });
      if (!sent.ok) throw new Error(sent.error.message);
      // Wait for the first scan of this phase to start, then edit while they run.
      const first = model.requests.length + 1;
      for (const end = Date.now() + 30_000; model.requests.length < first; await new Promise((resolve) => setTimeout(resolve, 10)))
        if (Date.now() > end) throw new Error(`the scripted agent did not start searching within 30 s (${model.requests.length} requests)`);
      const before = model.requests.length;
      let edits = 0;
      while (edits < EDITS_PER_PHASE || model.requests.length - before < MIN_SCANS) {
        if (model.requests.length > SCANS) throw new Error(`the scripted agent ran out of its ${SCANS} searches before the edits were done`);
        busy.push(await edit());
        edits++;
      }
      scansDuring += model.requests.length - before;
      await stopTask(socket);
      await waitUntilIdle(socket);
    }
    if (model.errors.length > 0) throw model.errors[0]!;
    const summary = (samples: number[]) => `p50 ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms`;
    console.log(`board edit round trip (plan.edit over keel web's socket, ${EDIT_GAP_MS} ms apart), ${ROUNDS} idle and ${ROUNDS} busy phases alternating`);
    console.log(`  idle, ${idle.length} edits: ${summary(idle)}`);
    console.log(`  during ${label} (${scansDuring} meanwhile), ${busy.length} edits: ${summary(busy)}`);
    const ratio = (q: number) => (percentile(busy, q) / percentile(idle, q)).toFixed(2);
    console.log(`  ratio during scan / idle: p50 ${ratio(50)}×, p95 ${ratio(95)}× (goal ≤ 2×)`);
  } finally {
    socket.close();
    await keel.stop();
    await model.close();
    home.remove();
  }
}

/** Until the stopped task has ended, so the next idle phase is idle. */
async function waitUntilIdle(socket: KeelSocket): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const status = await socket.request('agent.status', {});
    if (status.ok && !status.value.running) return;
  }
  throw new Error('the stopped task did not end within 30 s');
}

async function stopTask(socket: KeelSocket): Promise<void> {
  await socket.request('task.stop', {});
}
