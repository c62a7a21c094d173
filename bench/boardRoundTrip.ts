import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { connectKeelSocket } from '../test/e2e/support/keelSocket';
import { tapPageSocket } from './socketTap';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';

/** Read when the bench runs: index.ts sets it after its imports have loaded. */
const quick = () => process.env.KEEL_BENCH_QUICK === '1';
const GOAL_P95_MS = 16;

/**
 * The plan board's round trip in `keel web` + Chromium: a person changes an item's status on the
 * board → `plan.edit` over the socket → validated and stored in main → the board renders the new
 * stored version. Timed inside the page with performance.now(), from the change event to the
 * mutation of the board's data-plan-version attribute. Baseline, same page and run: a `plan.get`
 * round trip over a bare WebSocket (transport and dispatch only, no validation, no render).
 * Prints figures only. Needs `npm run build`.
 */
export async function benchBoardRoundTrip(): Promise<void> {
  const EDITS = quick() ? 20 : 200;
  const WARMUP = quick() ? 5 : 20;
  const home = tempDir('bench-home');
  const root = tempDir('bench-ws');
  const folder = join(root.path, 'bench-project');
  mkdirSync(folder);
  const keel = await startKeelWeb({ keelHome: home.path, workspace: folder });
  const browser = await launchChromium();
  try {
    const socket = await connectKeelSocket(keel.url);
    const seeded = await socket.request('plan.edit', {
      baseVersion: 0,
      items: [{ content: 'Toggle this step' }, { content: 'Read the code' }, { content: 'Run the tests' }],
    });
    socket.close();
    if (!seeded.ok) throw new Error(seeded.error.message);

    const { page } = await newPage(browser);
    // When the page sends and when each socket message reaches it, to split the round trip into
    // the board's own work (action → send), main and the socket (send → first message back) and
    // rendering (first message → DOM).
    await tapPageSocket(page);
    await page.goto(keel.url);
    await page.locator('[data-plan-version="1"] select.status-select').first().waitFor();

    const board = await page.evaluate(async (count) => {
      const section = document.querySelector('[data-plan-version]')!;
      const select = section.querySelector<HTMLSelectElement>('select.status-select')!;
      const { sends, arrivals } = (window as unknown as { __keelSocketTap: { sends: number[]; arrivals: number[] } }).__keelSocketTap;
      const times: { total: number; board: number; main: number; render: number }[] = [];
      for (let i = 0; i < count; i++) {
        const version = Number(section.getAttribute('data-plan-version'));
        const rendered = new Promise<number>((resolve, reject) => {
          // An edit that never renders is a broken bench, not a slow board: it fails instead of hanging.
          const timer = setTimeout(() => reject(new Error(`edit ${i + 1} was never rendered (no new data-plan-version in 10 s)`)), 10_000);
          const observer = new MutationObserver(() => {
            if (Number(section.getAttribute('data-plan-version')) > version) {
              observer.disconnect();
              clearTimeout(timer);
              resolve(performance.now());
            }
          });
          observer.observe(section, { attributes: true, attributeFilter: ['data-plan-version'] });
        });
        arrivals.length = 0;
        sends.length = 0;
        const start = performance.now();
        select.value = select.value === 'completed' ? 'pending' : 'completed';
        select.dispatchEvent(new Event('change', { bubbles: true }));
        const end = await rendered;
        const sent = sends[0];
        const back = arrivals[0];
        if (sent === undefined || back === undefined)
          throw new Error(`edit ${i + 1}: the socket tap saw no ${sent === undefined ? 'plan.edit sent' : 'message back'}`);
        times.push({ total: end - start, board: sent - start, main: back - sent, render: end - back });
        // Let the edit's answer (it follows the plan.changed event) arrive before the next edit.
        for (let wait = 0; arrivals.length < 2 && wait < 100; wait++) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return times;
    }, EDITS + WARMUP);

    // The page takes the token out of its address once loaded: it comes from here.
    const token = new URL(keel.url).searchParams.get('token') ?? '';
    const baseline = await page.evaluate(
      async ({ count, token }) => {
        const ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
        await new Promise((resolve, reject) => {
          ws.addEventListener('open', resolve, { once: true });
          ws.addEventListener('close', () => reject(new Error('the baseline socket was refused')), { once: true });
        });
        const times: number[] = [];
        // (No named function inside page.evaluate: the bench runner's transpiler would wrap it in a helper the page lacks.)
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
      { count: EDITS + WARMUP, token },
    );

    const measured = board.slice(WARMUP);
    const b = summarise(measured.map((t) => t.total));
    const part = (key: 'board' | 'main' | 'render') => {
      const s = summarise(measured.map((t) => t[key]));
      return `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}`;
    };
    const base = summarise(baseline.slice(WARMUP));
    console.log(
      `board round trip (edit → validated in main → rendered), ${EDITS} edits: p50 ${ms(b.p50)}, p95 ${ms(b.p95)}, max ${ms(b.max)} (goal: p95 ≤ ${GOAL_P95_MS} ms)`,
    );
    console.log(`  board, action → plan.edit sent: ${part('board')}`);
    console.log(`  main + socket, sent → first message back: ${part('main')}`);
    console.log(`  rendering, first message → DOM: ${part('render')}`);
    console.log(`baseline (plan.get over a bare WebSocket from the same page), ${EDITS} requests: p50 ${ms(base.p50)}, p95 ${ms(base.p95)}`);
    console.log(`ratio board / baseline: p50 ${(b.p50 / base.p50).toFixed(1)}×, p95 ${(b.p95 / base.p95).toFixed(1)}×`);
  } finally {
    await browser.close();
    await keel.stop();
    home.remove();
    root.remove();
  }
}

function summarise(samples: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchBoardRoundTrip();
}
