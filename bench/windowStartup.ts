import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium, newPage } from '../test/e2e/support/chromium';
import { connectKeelSocket } from '../test/e2e/support/keelSocket';
import { startKeelWeb, tempDir } from '../test/e2e/support/keelWeb';
import { sized } from './quick';
import { heading, percentile } from './stats';

const LOADS = sized(10, 3);
const WARMUP = 1;

/**
 * In every page before its own scripts: notes (performance.now(), i.e. since navigation start) when
 * the plan board first shows a stored plan and when the chat's composer is there and enabled.
 * A string, not a function: the bench runner's transpiler would wrap a function in a helper the page lacks.
 */
const READY_PROBE = `
  window.__keelReady = { board: null, composer: null };
  new MutationObserver(() => {
    const ready = window.__keelReady;
    if (ready.board === null && document.querySelector('section.plan-board[data-plan-version]')) ready.board = performance.now();
    const composer = document.querySelector('.chat-pane textarea');
    if (ready.composer === null && composer && !composer.disabled) ready.composer = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

/** (Evaluated in the page, where the probe set it; arrow functions only, for the same reason.) */
interface Probe {
  __keelReady: { board: number | null; composer: number | null };
}

interface Load {
  firstPaint: number | null;
  firstContentfulPaint: number | null;
  domContentLoaded: number;
  board: number | null;
  composer: number | null;
}

/**
 * The window's startup in `keel web` + Chromium: first paint, first contentful paint, and time to
 * interactive (the plan board showing the stored plan and the chat composer ready), each a median
 * of LOADS loads, every load in a fresh browser context (a new window, cold cache). Baseline in the
 * same run: a blank page served by the same `keel web` (its plain 404 page), which measures the
 * browser, the loopback and the server, and none of the renderer. Prints figures only; needs
 * `npm run build`.
 */
export async function benchWindowStartup(): Promise<void> {
  const home = tempDir('bench-start-home');
  const root = tempDir('bench-start-ws');
  const folder = join(root.path, 'startup-project');
  mkdirSync(folder);
  const keel = await startKeelWeb({ keelHome: home.path, workspace: folder });
  const browser = await launchChromium();
  try {
    const socket = await connectKeelSocket(keel.url);
    const seeded = await socket.request('plan.edit', {
      baseVersion: 0,
      items: [
        { content: 'Read the existing code', status: 'completed' },
        { content: 'Write hello.py', status: 'in_progress', activeForm: 'Writing hello.py' },
        { content: 'Run it and check the output' },
      ],
    });
    socket.close();
    if (!seeded.ok) throw new Error(seeded.error.message);

    const blankUrl = new URL('/blank-baseline', keel.url).href;
    const blank = await measureLoads(browser, blankUrl, false);
    const window = await measureLoads(browser, keel.url, true);

    heading(`Window startup (keel web, Chromium), median of ${LOADS} loads, each in a new context`);
    const row = (label: string, values: (number | null)[]) => {
      const present = values.filter((value): value is number => value !== null);
      const median = present.length === 0 ? '—' : `${percentile(present, 50).toFixed(1)} ms`;
      const spread = present.length === 0 ? '' : ` (min ${Math.min(...present).toFixed(1)}, max ${Math.max(...present).toFixed(1)})`;
      const missing = present.length < values.length ? ` [${values.length - present.length} of ${values.length} never happened]` : '';
      console.log(`  ${label.padEnd(48)} ${median}${spread}${missing}`);
    };
    console.log('blank page from the same server (baseline):');
    row(
      'first paint',
      blank.map((load) => load.firstPaint),
    );
    row(
      'first contentful paint',
      blank.map((load) => load.firstContentfulPaint),
    );
    row(
      'DOMContentLoaded',
      blank.map((load) => load.domContentLoaded),
    );
    console.log('the workbench window (folder open, 3-step plan):');
    row(
      'first paint',
      window.map((load) => load.firstPaint),
    );
    row(
      'first contentful paint',
      window.map((load) => load.firstContentfulPaint),
    );
    row(
      'DOMContentLoaded',
      window.map((load) => load.domContentLoaded),
    );
    row(
      'plan board shows the stored plan',
      window.map((load) => load.board),
    );
    row(
      'chat composer ready',
      window.map((load) => load.composer),
    );
    row(
      'interactive (board and composer both ready)',
      window.map((load) => (load.board === null || load.composer === null ? null : Math.max(load.board, load.composer))),
    );
    const fcp = (loads: Load[]) =>
      percentile(
        loads.flatMap((load) => (load.firstContentfulPaint === null ? [] : [load.firstContentfulPaint])),
        50,
      );
    console.log(`first contentful paint, window − baseline: ${(fcp(window) - fcp(blank)).toFixed(1)} ms`);
  } finally {
    await browser.close();
    await keel.stop();
    home.remove();
    root.remove();
  }
}

async function measureLoads(browser: Browser, url: string, workbench: boolean): Promise<Load[]> {
  const loads: Load[] = [];
  for (let i = 0; i < LOADS + WARMUP; i++) {
    const { context, page } = await newPage(browser);
    try {
      if (workbench) await page.addInitScript(READY_PROBE);
      await page.goto(url, { waitUntil: 'load' });
      if (workbench) {
        await page.waitForFunction(() => (window as unknown as Probe).__keelReady.board !== null, undefined, { timeout: 20_000 });
        // The composer belongs to the chat; a build without it still reports the rest.
        await page.waitForFunction(() => (window as unknown as Probe).__keelReady.composer !== null, undefined, { timeout: 5_000 }).catch(() => undefined);
      }
      // Paint entries are queued after the frame that produced them.
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, undefined, { timeout: 2_000 }).catch(() => undefined);
      const load = (await page.evaluate(`(() => {
        const paint = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
        const navigation = performance.getEntriesByType('navigation')[0];
        const ready = window.__keelReady ?? { board: null, composer: null };
        return {
          firstPaint: paint('first-paint'),
          firstContentfulPaint: paint('first-contentful-paint'),
          domContentLoaded: navigation ? navigation.domContentLoadedEventEnd : 0,
          board: ready.board,
          composer: ready.composer,
        };
      })()`)) as Load;
      if (i >= WARMUP) loads.push(load);
    } finally {
      await context.close();
    }
  }
  return loads;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchWindowStartup();
}
