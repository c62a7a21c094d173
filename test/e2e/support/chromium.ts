import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from 'playwright-core';
import { inject } from 'vitest';

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * A Chromium to drive: KEEL_CHROMIUM when set, else the usual system names on PATH (Debian's
 * chromium, Ubuntu's chromium-browser, Google Chrome), else a build in Playwright's cache. Null
 * when there is none.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, home = homedir()): string | null {
  if (env.KEEL_CHROMIUM) return env.KEEL_CHROMIUM;
  const folders = [...(env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin', '/snap/bin'];
  for (const folder of folders) {
    for (const name of SYSTEM_NAMES) if (isExecutable(join(folder, name))) return join(folder, name);
  }
  return playwrightCacheChromium(env.PLAYWRIGHT_BROWSERS_PATH || join(home, '.cache', 'ms-playwright'));
}

/** `chromium-<rev>/chrome-linux/chrome` (or `chrome-linux64`), newest revision first. */
function playwrightCacheChromium(cache: string): string | null {
  if (!existsSync(cache)) return null;
  const builds = readdirSync(cache)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  for (const build of builds) {
    for (const folder of ['chrome-linux', 'chrome-linux64']) {
      const binary = join(cache, build, folder, 'chrome');
      if (isExecutable(binary)) return binary;
    }
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium the browser tests use (the global setup makes sure there is one). */
export const chromiumPath = findChromium() ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A headless Chromium with the project's fixed flags; each context gets a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

/**
 * The Chromium the global setup started for the whole run (one for every test file: a context per
 * page keeps them apart), connected once per file; a Chromium of the file's own when there is none.
 */
let shared: Promise<Browser> | undefined;
export function sharedBrowser(): Promise<Browser> {
  shared ??= (async () => {
    const endpoint = inject('chromiumEndpoint');
    return endpoint ? chromium.connect(endpoint) : launchChromium();
  })();
  return shared;
}

/**
 * A Chromium connection of the caller's own, for a test file that closes what it opened: the run's
 * shared Chromium (closing the connection closes its contexts and leaves the Chromium running), or
 * one launched for it when there is none. Launching one per file cost more than some of its tests.
 */
export async function connectChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/** Starts the Chromium that `sharedBrowser` connects to; the global setup closes it after the run. */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's websocket address, when the run includes browser tests. */
    chromiumEndpoint: string | undefined;
  }
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

/** A new context and page at 1280x800, with browser-side errors collected for the test to check. */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}
