import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventChannels } from '../../common/contract';
import { contentSecurityPolicy } from '../../common/csp';
import { KeelCore } from '../../main/api/core';
import { createAppProtocolHandler } from '../../main/electron/appProtocol';
import { IpcStandIn } from '../support/electronIpcStandIn';
import { addStep, board, screenshot, stepTexts } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { repoRoot, tempDir } from './support/keelWeb';

/*
 * The desktop window's page as the packaged app serves it: the built out/renderer through the
 * keel://app handler (main/electron/appProtocol.ts), the very function main hands to
 * protocol.handle. Chromium will not route a custom scheme, so the page lives at
 * http://keel.app.test/ and every request is translated to keel://app/ and answered by the handler,
 * status, headers and body as they are. Like the real window it is one origin that serves both the
 * page and its `crossorigin` module script and stylesheet. The page gets the keelIpc the preload
 * makes (preload/bridge.ts) over main's real IPC binding to a real KeelCore; only Electron's
 * transport between the two is a stand-in.
 */

const ORIGIN = 'http://keel.app.test';
const rendererDir = join(repoRoot, 'out', 'renderer');
const built = existsSync(join(rendererDir, 'index.html'));
if (!built) console.log('appProtocol e2e skipped: out/renderer is not built (run "npm run build")');

interface Served {
  path: string;
  status: number;
  headers: Record<string, string>;
}

let browser: Browser;
const home = tempDir('app-protocol-home');
const workspaces = tempDir('app-protocol-ws');
const folder = join(workspaces.path, 'shipped-app');
mkdirSync(folder);

beforeAll(async () => {
  if (built) browser = await connectChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  home.remove();
  workspaces.remove();
});

/** A context whose http://keel.app.test/ is answered by the keel://app handler; records what it served. */
async function servedContext(context: BrowserContext): Promise<Served[]> {
  const handle = createAppProtocolHandler(rendererDir);
  const served: Served[] = [];
  await context.route(`${ORIGIN}/**`, async (route) => {
    const request = route.request();
    const url = `keel://app${request.url().slice(ORIGIN.length)}`;
    const response = await handle(new Request(url, { method: request.method() }));
    const headers = Object.fromEntries(response.headers);
    served.push({ path: new URL(request.url()).pathname, status: response.status, headers });
    await route.fulfill({ status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) });
  });
  // Anything else the page asks for would leave the app: refuse it loudly.
  await context.route(
    (url) => !url.href.startsWith(ORIGIN),
    (route) => route.abort('blockedbyclient'),
  );
  return served;
}

/** The page's keelIpc: the preload's bridge, wired through main's IPC binding to `core`. */
async function giveBridge(page: Page, core: KeelCore): Promise<() => void> {
  const ipc = new IpcStandIn();
  const unbind = ipc.bind(core);
  const bridge = ipc.bridge();
  await page.exposeBinding('__keelRequest', (_source, channel: string, input: unknown) => bridge.request(channel, input));
  for (const channel of eventChannels) {
    bridge.on(
      channel,
      (payload) =>
        void page
          .evaluate(([name, value]) => (window as unknown as { __keelEmit(c: unknown, p: unknown): void }).__keelEmit(name, value), [channel, payload] as const)
          .catch(() => undefined),
    );
  }
  await page.addInitScript(() => {
    const listeners = new Map<string, Set<(payload: unknown) => void>>();
    const page = window as unknown as Record<string, unknown>;
    page.__keelEmit = (channel: string, payload: unknown) => {
      for (const listener of listeners.get(channel) ?? []) listener(payload);
    };
    const request = page.__keelRequest as (channel: string, input: unknown) => Promise<unknown>;
    page.keelIpc = Object.freeze({
      request: (channel: string, input: unknown) => request(channel, input),
      on(channel: string, listener: (payload: unknown) => void) {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener);
        listeners.set(channel, set);
        return () => set.delete(listener);
      },
      // The terminal's byte path is not part of this test (test/unit/electron/terminalIpc.test.ts has it).
      terminalOutput: Object.freeze({ on: () => () => undefined, ack: () => undefined }),
    });
  });
  return unbind;
}

describe.skipIf(!built)('the window served through the keel://app handler', () => {
  it('loads the built bundle, stylesheet and module script with the app headers, and the workbench works', { timeout: 90_000 }, async () => {
    const core = new KeelCore({ dataDir: home.path, host: 'electron', version: 'e2e', chooseFolder: async () => folder });
    const { context, page, errors } = await newPage(browser);
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    const served = await servedContext(context);
    const unbind = await giveBridge(page, core);
    try {
      const response = await page.goto(`${ORIGIN}/index.html`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toBe(contentSecurityPolicy({ connect: [] }));

      // The welcome screen: React ran, so the module script loaded and executed.
      await page.getByRole('heading', { name: 'Open a folder to start' }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'app-protocol-welcome');

      // The first paint needs only what index.html names (the entry chunk, the chunks it imports,
      // the stylesheet); the plan and chat, terminal, markdown, settings and changes are chunks of their own.
      const byPath = new Map(served.map((entry) => [entry.path, entry]));
      expect(byPath.get('/index.html')).toMatchObject({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
      const entry = [...readFileSync(join(rendererDir, 'index.html'), 'utf8').matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => `/${match[1]}`);
      expect(entry.length).toBeGreaterThan(1);
      for (const path of entry) expect(byPath.get(path), path).toMatchObject({ status: 200 });

      // The stylesheet applies (a div is a block unless it says otherwise; the app's shell is laid
      // out by it), and each font the page declares has loaded (the build ships none today).
      const look = await page.evaluate(async () => {
        await document.fonts.ready;
        return {
          display: getComputedStyle(document.querySelector('.app')!).display,
          rules: [...document.styleSheets].reduce((count, sheet) => count + sheet.cssRules.length, 0),
          fonts: [...document.fonts].map((face) => `${face.family}: ${face.status}`),
        };
      });
      expect(look.display).not.toBe('block');
      expect(look.rules).toBeGreaterThan(10);
      for (const font of look.fonts) expect(font).toMatch(/: loaded$/);

      // Open Folder… (the native picker, answered by main) → the workbench with the plan board.
      await page.getByRole('button', { name: 'Open Folder…' }).first().click();
      await board(page).waitFor({ timeout: 30_000 });
      await addStep(page, 'Serve the window from keel://app');
      expect(await stepTexts(page)).toEqual(['Serve the window from keel://app']);
      await screenshot(page, 'app-protocol-workbench');

      // Every part that loads later loads from the same origin under the same CSP, and works: the
      // terminal draws its xterm.js screen, the settings show their fields, the changes their panel.
      await page.getByRole('button', { name: 'Terminal', exact: true }).click();
      await page.locator('#terminal-pane .xterm-screen').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('dialog').getByLabel('Model', { exact: true }).waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      await page
        .locator('header.app-header')
        .getByRole('button', { name: /^Changes/ })
        .click();
      await page.locator('section.changes-panel .changes-head').waitFor({ timeout: 30_000 });

      // Then every asset of the build was asked for and served with the type a browser needs (the
      // socket worker is keel web's; the window talks over the bridge).
      const assets = readdirSync(join(rendererDir, 'assets')).filter((name) => !name.startsWith('socketWorker-'));
      const scripts = assets.filter((name) => name.endsWith('.js'));
      const styles = assets.filter((name) => name.endsWith('.css'));
      expect(scripts.length).toBeGreaterThan(entry.filter((path) => path.endsWith('.js')).length);
      // One stylesheet for all of them, loaded first (see renderer/allStyles.ts).
      expect(styles.map((name) => `/assets/${name}`)).toEqual(entry.filter((path) => path.endsWith('.css')));
      const byPathNow = () => new Map(served.map((entry) => [entry.path, entry]));
      await expect.poll(() => assets.filter((name) => !byPathNow().has(`/assets/${name}`)), { timeout: 10_000 }).toEqual([]);
      for (const name of scripts)
        expect(byPathNow().get(`/assets/${name}`), name).toMatchObject({ status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8' } });
      for (const name of styles)
        expect(byPathNow().get(`/assets/${name}`), name).toMatchObject({ status: 200, headers: { 'content-type': 'text/css; charset=utf-8' } });
      for (const font of assets.filter((name) => /\.(woff2?|ttf|otf)$/.test(name))) {
        expect(byPathNow().get(`/assets/${font}`), font).toMatchObject({ status: 200, headers: { 'content-type': expect.stringMatching(/^font\//) } });
      }
      for (const entry of served) {
        expect(entry.headers, entry.path).toMatchObject({
          'x-content-type-options': 'nosniff',
          'content-security-policy': contentSecurityPolicy({ connect: [] }),
        });
      }

      expect(errors).toEqual([]);
      expect(failed).toEqual([]);

      // The header's CSP is in force, not only the meta tag's: the meta allows a loopback
      // WebSocket (for keel web), the window's header does not.
      const violation = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true });
            try {
              new WebSocket('ws://127.0.0.1:9/ws');
            } catch {
              resolve('connect-src (thrown)');
            }
          }),
      );
      expect(violation).toMatch(/^connect-src/);
    } finally {
      unbind();
      await context.close();
      await core.dispose();
    }
  });

  it('without the bridge (a preload that failed) shows the welcome screen and why it cannot work, not an empty window', { timeout: 60_000 }, async () => {
    const { context, page, errors } = await newPage(browser);
    await servedContext(context);
    try {
      await page.goto(`${ORIGIN}/index.html`);
      await page.getByRole('heading', { name: 'Open a folder to start' }).waitFor({ timeout: 30_000 });
      await page.getByText('This page has no connection to Keel.').waitFor();
      await screenshot(page, 'app-protocol-no-bridge');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    // In the person's language.
    const chinese = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
    try {
      await servedContext(chinese);
      const page = await chinese.newPage();
      await page.goto(`${ORIGIN}/index.html`);
      await page.getByText('此页面未连接到 Keel。').waitFor({ timeout: 30_000 });
      await screenshot(page, 'app-protocol-no-bridge-zh');
    } finally {
      await chinese.close();
    }
  });

  it('refuses traversal and other hosts from the page too', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage(browser);
    await servedContext(context);
    try {
      await page.goto(`${ORIGIN}/index.html`);
      const statuses = await page.evaluate(async () => {
        const paths = ['/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/..%5cpackage.json', '/missing.js', '/assets/'];
        const answers: Record<string, number> = {};
        for (const path of paths) answers[path] = (await fetch(path)).status;
        return answers;
      });
      expect(statuses).toEqual({
        '/%2e%2e/package.json': 404,
        '/assets/..%2f..%2fpackage.json': 400,
        '/..%5cpackage.json': 400,
        '/missing.js': 404,
        '/assets/': 400,
      });
    } finally {
      await context.close();
    }
  });
});
