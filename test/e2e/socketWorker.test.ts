import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeTerminalFrame } from '../../common/terminalFrames';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import { openShellTab, runInShell } from './support/until';

/*
 * Where the `keel web` page's socket lives, in a real Chromium against a real `keel web` child:
 * in a dedicated worker (so that reading a terminal flood off the socket does not take the
 * thread that parses and draws it), and on the page itself when the worker cannot load. Either
 * way the window works: requests (the status bar's model), events, and a shell's bytes and acks.
 */

const home = tempDir('socket-worker-home');
const folder = tempDir('socket-worker-ws');
const scripted = useScriptedWindow({ workspace: folder.path, keelHome: home.path, keelKey: null, page: false });

let keel: KeelWeb;
beforeAll(() => {
  keel = scripted.keel;
});

afterAll(() => {
  home.remove();
  folder.remove();
});

// The page's own socket takes over when the worker fails or cannot load; Chromium logs why.
const WORKER_FAILED = [/socket worker failed on purpose/];
const WORKER_BLOCKED = [/Failed to load resource|socketWorker/];

/** The window answers requests and a shell tab echoes a command: the socket carries both ways. */
async function windowWorks(page: Page): Promise<void> {
  await page.goto(keel.url);
  await page.locator('footer').getByText('claude-sonnet-5-5').waitFor();
  const shell = await openShellTab(page);
  // A flood larger than the flow window (4 MB at most): it ends only if the page's acknowledgements reach main.
  await runInShell(page, shell, 'head -c 6000000 /dev/zero | tr "\\0" x | fold -w 100; echo done-$((2*3))', 'done-6', 60_000);
}

describe('the keel web page’s socket', () => {
  test('lives in a worker', async () => {
    const { page } = await scripted.newPage();
    await windowWorks(page);
    expect(page.workers().map((worker) => worker.url())).toEqual([expect.stringMatching(/\/assets\/socketWorker-[\w-]+\.js$/)]);
  }, 90_000);

  test('is the page’s own, reconnected, when the worker fails mid-session', async () => {
    const { page } = await scripted.newPage({ expectedErrors: WORKER_FAILED });
    await windowWorks(page);
    const [worker] = page.workers();
    // Playwright reports a page's own sockets (not a worker's): the reconnect is the first.
    const reconnected = page.waitForEvent('websocket', { timeout: 30_000 });
    // An uncaught error ends the worker, and its socket with it.
    await worker!.evaluate(() => {
      setTimeout(() => {
        throw new Error('socket worker failed on purpose');
      });
    });
    await reconnected;
    expect(page.workers()).toEqual([]);
    // The shell's bytes and acks flow again, over the page's own socket.
    const shell = await page.evaluate(() => window.__keelTerminals!.tabs().find((tab) => tab.kind === 'shell')!.id);
    await page.locator('#terminal-pane').click();
    await runInShell(page, shell, 'echo again-$((3+4))', 'again-7');
  }, 90_000);

  test('is the page’s own when the worker cannot load', async () => {
    const { page } = await scripted.newPage({ expectedErrors: WORKER_BLOCKED });
    await page.route(/socketWorker-[\w-]+\.js/, (route) => route.abort());
    await windowWorks(page);
    expect(page.workers()).toEqual([]);
  }, 90_000);

  test('carries acks that tell main how fast xterm.js parses, so main sizes its window in time', async () => {
    const { page } = await scripted.newPage({ expectedErrors: WORKER_BLOCKED });
    // Playwright sees only a page's own sockets: the worker is kept out to read the acks.
    await page.route(/socketWorker-[\w-]+\.js/, (route) => route.abort());
    const rates: number[] = [];
    await page.routeWebSocket(/\/ws\?token=/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (typeof message !== 'string') {
          const frame = decodeTerminalFrame(new Uint8Array(message));
          if (frame?.kind === 'ack' && frame.parseRate !== undefined) rates.push(frame.parseRate);
        }
        server.send(message);
      });
      server.onMessage((message) => ws.send(message));
    });
    await page.goto(keel.url);
    const shell = await openShellTab(page);
    // Output faster than `fold`'s line-by-line writes, so that the page gets pieces large enough
    // to measure (32 KB): 1 MB in one line, which wraps.
    await runInShell(page, shell, 'head -c 1000000 /dev/zero | tr "\\0" y; echo; echo rate-$((2*4))', 'rate-8', 60_000);
    // In bytes a second: xterm.js parses megabytes a second.
    expect(rates.length).toBeGreaterThan(0);
    expect(Math.min(...rates)).toBeGreaterThan(100_000);
  }, 90_000);
});
