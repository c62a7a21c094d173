import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { connectKeelSocket } from '../test/e2e/support/keelSocket';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { reply, startScriptedAnthropic, text, toolUse } from '../test/support/scriptedAnthropic';
import { editOnBoard, type EditTimes } from './boardEdits';
import { sized } from './quick';
import { benchTree } from './searchTree';
import { tapPageSocket } from './socketTap';
import { heading } from './stats';

const GOAL_P95_MS = 16;
const GOAL_SCAN_RATIO = 2;
const EDITS = sized(200, 20);
const WARMUP = sized(20, 5);
/** Between two edits: a person's edits come every so often, not back to back. */
const PAUSE_MS = 15;
/** More scans than the edits can outlast; the task is stopped when the edits are done. */
const SCANS = 5_000;
const KEY = 'sk-bench-board-0000000000';

/**
 * The plan board's round trip in `keel web` + Chromium: a person changes an item's status on the
 * board → `plan.edit` over the socket → validated and stored in main → the board renders the new
 * stored version. Timed inside the page with performance.now(), from the change event to the
 * mutation of the board's data-plan-version attribute, and split by the edit's own request id
 * (boardEdits.ts). Idle, then while the agent runs full no-match scans of the search bench's tree
 * with search_text one after another (its events share the socket). Baseline, same page and
 * run: a `plan.get` round trip over a bare WebSocket (transport and dispatch only, no validation,
 * no render). Prints figures only. Needs `npm run build`.
 */
export async function benchBoardRoundTrip(): Promise<void> {
  heading('Plan board: an edit on the board to its stored version rendered');
  const tree = benchTree();
  const model = await startScriptedAnthropic({
    apiKey: KEY,
    script: [...Array.from({ length: SCANS }, () => reply(toolUse('search_text', { pattern: 'zqxjv_never_here' }))), reply(text('Done.'))],
  });
  const home = tempDir('bench-board-home');
  const keel = await startKeelWeb({ keelHome: home.path, workspace: tree.root, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.baseURL } });
  const browser = await launchChromium();
  try {
    const socket = await connectKeelSocket(keel.url);
    const seeded = await socket.request('plan.edit', {
      baseVersion: 0,
      items: [{ content: 'Toggle this step' }, { content: 'Read the code' }, { content: 'Run the tests' }],
    });
    if (!seeded.ok) throw new Error(seeded.error.message);

    const { page } = await newPage(browser);
    await tapPageSocket(page);
    await page.goto(keel.url);
    await page.locator(`[data-plan-version="${seeded.value.version}"] select.status-select`).first().waitFor();

    const idle = (await page.evaluate(editOnBoard, { count: EDITS + WARMUP, pauseMs: PAUSE_MS })).slice(WARMUP);
    const baseline = (await planGetRoundTrips(page, new URL(keel.url).searchParams.get('token') ?? '', EDITS + WARMUP)).slice(WARMUP);

    const sent = await socket.request('task.send', { text: 'Scan the tree again and again.' });
    if (!sent.ok) throw new Error(sent.error.message);
    // The first scans under way, then the same edits while they run.
    for (const end = Date.now() + 30_000; model.requests.length < 2; await new Promise((resolve) => setTimeout(resolve, 10)))
      if (Date.now() > end) throw new Error(`the scripted agent did not start scanning within 30 s (${model.requests.length} requests)`);
    const before = model.requests.length;
    const busy = (await page.evaluate(editOnBoard, { count: EDITS + WARMUP, pauseMs: PAUSE_MS })).slice(WARMUP);
    const scans = model.requests.length - before;
    const stopped = await socket.request('task.stop', {});
    socket.close();
    if (!stopped.ok) throw new Error(stopped.error.message);
    if (model.errors.length > 0) throw model.errors[0]!;
    if (scans < 2) throw new Error(`only ${scans} scan(s) ran during the ${EDITS + WARMUP} edits: the edits were not measured during scans`);

    const b = summarise(idle.map((t) => t.total));
    const base = summarise(baseline);
    console.log(`${EDITS} edits after ${WARMUP} warm-up, ${PAUSE_MS} ms apart; tree of ${tree.files.toLocaleString('en')} files for the scans`);
    console.log(`idle: board round trip p50 ${ms(b.p50)}, p95 ${ms(b.p95)}, max ${ms(b.max)} (goal: p95 ≤ ${GOAL_P95_MS} ms)`);
    printSplit(idle);
    console.log(`baseline (plan.get over a bare WebSocket from the same page), ${EDITS} requests: p50 ${ms(base.p50)}, p95 ${ms(base.p95)}`);
    console.log(`ratio idle board / baseline: p50 ${(b.p50 / base.p50).toFixed(1)}×, p95 ${(b.p95 / base.p95).toFixed(1)}×`);
    const s = summarise(busy.map((t) => t.total));
    console.log(`during ${scans} full no-match scans by search_text: board round trip p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)}`);
    printSplit(busy);
    console.log(`ratio during scans / idle: p50 ${(s.p50 / b.p50).toFixed(2)}×, p95 ${(s.p95 / b.p95).toFixed(2)}× (goal ≤ ${GOAL_SCAN_RATIO}×)`);
  } finally {
    await browser.close();
    await keel.stop();
    await model.close();
    home.remove();
  }
}

function printSplit(times: EditTimes[]): void {
  const part = (key: 'board' | 'main' | 'render') => {
    const s = summarise(times.map((t) => t[key]));
    return `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}`;
  };
  console.log(`  board, action → plan.edit sent: ${part('board')}`);
  console.log(`  main + socket, sent → the edit's answer or newer plan.changed: ${part('main')}`);
  console.log(`  rendering, that message → DOM: ${part('render')}`);
}

/** `count` plan.get round trips over a WebSocket of the page's own, beside the board's (the page took the token out of its address: it is given). */
async function planGetRoundTrips(page: Page, token: string, count: number): Promise<number[]> {
  return page.evaluate(
    async ({ count, token }) => {
      const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('close', () => reject(new Error('the baseline socket was refused')), { once: true });
      });
      const times: number[] = [];
      const waiting = new Map<number, (at: number) => void>();
      ws.onmessage = (event) => waiting.get((JSON.parse(String(event.data)) as { id: number }).id)?.(performance.now());
      for (let id = 1; id <= count; id++) {
        const answered = new Promise<number>((resolve) => waiting.set(id, resolve));
        const start = performance.now();
        ws.send(JSON.stringify({ type: 'request', id, channel: 'plan.get', payload: {} }));
        times.push((await answered) - start);
      }
      ws.close();
      return times;
    },
    { count, token },
  );
}

function summarise(samples: number[]): { p50: number; p95: number; max: number } {
  if (samples.length === 0) throw new Error('no samples to summarise');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchBoardRoundTrip();
}
