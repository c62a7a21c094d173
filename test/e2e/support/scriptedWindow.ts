import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startScriptedAnthropic, type ScriptedAnthropic, type ScriptedAnthropicOptions, type Step } from '../../support/scriptedAnthropic';
import { newPage, sharedBrowser, type PageOptions } from './chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './keelWeb';

export interface WindowOptions {
  /** The scripted model's steps (more can be pushed on `server` later). */
  script?: Step[];
  /** The scripted model's other options (context limit, side answers…). */
  model?: Omit<ScriptedAnthropicOptions, 'apiKey' | 'script'>;
  /** The key the scripted model accepts; default 'k'. */
  apiKey?: string;
  /** ANTHROPIC_API_KEY of `keel web`; default `apiKey`; null starts it with no key. */
  keelKey?: string | null;
  /** Passed as --workspace; default a fresh temporary folder; null opens no folder. */
  workspace?: string | null;
  /** KEEL_HOME of `keel web`; default a fresh temporary folder. */
  keelHome?: string;
  /** Written to KEEL_HOME/settings.json before `keel web` starts. */
  settings?: object;
  /** False: `keel web` is not told where the scripted model is (the person enters it in Settings). */
  connectModel?: boolean;
  /** More environment for `keel web`. */
  env?: Record<string, string>;
  /** The first page's viewport and colour scheme; false opens no page. */
  page?: PageOptions | false;
  /** What the first page (and `openPage`) waits for once loaded; default the message box. */
  ready?: (page: Page) => Promise<unknown>;
  /** Page errors the test provokes on purpose; any other one fails it. */
  expectedPageErrors?: RegExp[];
}

export interface TrackedPageOptions extends PageOptions {
  /** Errors this page provokes on purpose (a worker made to fail, a blocked script). */
  expectedErrors?: RegExp[];
}

export interface ScriptedWindow {
  server: ScriptedAnthropic;
  /** The running `keel web` (a new one after `restartKeel`). */
  keel: KeelWeb;
  browser: Browser;
  /** The first page (undefined with `page: false`). */
  page: Page;
  /** Browser-side errors (pageerror, console errors) of every page opened through this window. */
  errors: string[];
  /** KEEL_HOME and the folder open in `keel web` (undefined with `workspace: null`). */
  keelHome: string;
  workspace: string | undefined;
  /** A new context and page on `keel web`, loaded and ready; its errors are checked like the first's. */
  openPage(options?: TrackedPageOptions & { ready?: (page: Page) => Promise<unknown> }): Promise<Page>;
  /** A new context and page, not loaded (for tests that go elsewhere first); its errors are checked. */
  newPage(options?: TrackedPageOptions): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** Closes every page but the first (a test's own pages, after it). */
  closePages(): Promise<void>;
  /** Stops `keel web` and starts it again on the same KEEL_HOME and folder. */
  restartKeel(): Promise<KeelWeb>;
  /** Page errors and scripted-server errors not reported yet; reading them clears them. */
  takeProblems(): string[];
  /** Stops everything (pages, `keel web`, the scripted model, its temporary folders), then fails on any problem left. */
  close(): Promise<void>;
}

const composerReady = (page: Page) => page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();

/**
 * Every browser test's start and end: the scripted model, a `keel web` child that talks to it, and
 * a Chromium page on the window, ready. Whatever started is stopped again when a later step fails,
 * and `close` fails the test on any page error or scripted-server error after stopping it all.
 */
export async function openScriptedWindow(options: WindowOptions = {}): Promise<ScriptedWindow> {
  const stops: (() => Promise<void> | void)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch {
        // One thing failing to stop must not leave the others running.
      }
    }
  };
  const errors: string[] = [];
  let reportedErrors = 0;
  let reportedServerErrors = 0;
  const expected = options.expectedPageErrors ?? [];
  const ready = options.ready ?? composerReady;
  const apiKey = options.apiKey ?? 'k';
  const keelKey = options.keelKey === undefined ? apiKey : options.keelKey;
  try {
    const keelHome = options.keelHome ?? own(stops, tempDir('e2e-home'));
    const workspace = options.workspace === undefined ? own(stops, tempDir('e2e-ws')) : (options.workspace ?? undefined);
    if (options.settings) writeFileSync(join(keelHome, 'settings.json'), JSON.stringify(options.settings));
    const server = await startScriptedAnthropic({ ...options.model, apiKey, script: options.script ?? [] });
    stops.push(() => server.close());
    const startKeel = () =>
      startKeelWeb({
        workspace,
        keelHome,
        env: {
          ...(options.connectModel === false ? {} : { ANTHROPIC_BASE_URL: server.baseURL }),
          ...(keelKey === null ? {} : { ANTHROPIC_API_KEY: keelKey }),
          ...options.env,
        },
      });
    let keel = await startKeel();
    stops.push(() => keel.stop());
    const browser = await sharedBrowser();
    const contexts = new Set<BrowserContext>();
    stops.push(() => Promise.all([...contexts].map((context) => context.close())).then(() => undefined));

    const trackedPage: ScriptedWindow['newPage'] = async (pageOptions) => {
      const opened = await newPage(browser, pageOptions);
      contexts.add(opened.context);
      opened.context.once('close', () => contexts.delete(opened.context));
      const report = (line: string) => {
        if (!pageOptions?.expectedErrors?.some((pattern) => pattern.test(line))) errors.push(line);
      };
      opened.page.on('pageerror', (error) => report(`pageerror: ${error.message}`));
      opened.page.on('console', (message) => {
        if (message.type() === 'error') report(`console: ${message.text()}`);
      });
      return opened;
    };
    const openPage: ScriptedWindow['openPage'] = async (pageOptions = {}) => {
      const { page } = await trackedPage(pageOptions);
      await page.goto(keel.url);
      await (pageOptions.ready ?? ready)(page);
      return page;
    };
    const page = options.page === false ? (undefined as unknown as Page) : await openPage(options.page);

    const window: ScriptedWindow = {
      server,
      get keel() {
        return keel;
      },
      browser,
      page,
      errors,
      keelHome,
      workspace,
      openPage,
      newPage: trackedPage,
      async closePages() {
        await Promise.all([...contexts].filter((context) => context !== page?.context()).map((context) => context.close()));
      },
      async restartKeel() {
        await keel.stop();
        keel = await startKeel();
        return keel;
      },
      takeProblems() {
        const fresh = errors.slice(reportedErrors).filter((line) => !expected.some((pattern) => pattern.test(line)));
        const serverErrors = server.errors.slice(reportedServerErrors).map((error) => `scripted server: ${error.message}`);
        reportedErrors = errors.length;
        reportedServerErrors = server.errors.length;
        return [...fresh, ...serverErrors];
      },
      async close() {
        await stopAll();
        expect(window.takeProblems(), 'page errors and scripted-server errors').toEqual([]);
      },
    };
    return window;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * `openScriptedWindow` for a whole file or describe block: opened before its first test, checked
 * after each test (a page error or scripted-server error fails the test it happened in), closed
 * after the last. Read its fields inside tests and hooks (they exist once it is open).
 */
export function useScriptedWindow(options: WindowOptions | (() => WindowOptions) = {}, timeoutMs = 90_000): ScriptedWindow {
  let current: ScriptedWindow | undefined;
  beforeAll(async () => {
    current = await openScriptedWindow(typeof options === 'function' ? options() : options);
  }, timeoutMs);
  afterEach(() => {
    if (current) expect(current.takeProblems(), 'page errors and scripted-server errors').toEqual([]);
  });
  afterAll(async () => {
    const window = current;
    current = undefined;
    await window?.close();
  }, timeoutMs);
  return new Proxy({} as ScriptedWindow, {
    get(_, key) {
      if (!current) throw new Error(`the scripted window is not open (reading ${String(key)} outside a test?)`);
      const value = Reflect.get(current, key, current) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/**
 * Runs `body` on a window of its own and always closes it; a failure in `body` is the one
 * reported, with the window's problems added to it.
 */
export async function withScriptedWindow(options: WindowOptions, body: (window: ScriptedWindow) => Promise<void>): Promise<void> {
  const window = await openScriptedWindow(options);
  try {
    await body(window);
  } catch (error) {
    const problems = window.takeProblems();
    await window.close().catch(() => undefined);
    if (problems.length > 0 && error instanceof Error) error.message += `\nalso: ${problems.join('\n')}`;
    throw error;
  }
  await window.close();
}

function own(stops: (() => void)[], dir: { path: string; remove(): void }): string {
  stops.push(() => dir.remove());
  return dir.path;
}
