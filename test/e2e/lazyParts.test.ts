import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { reply, startScriptedAnthropic, text } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir } from './support/keelWeb';

/*
 * The parts of the window that come in chunks of their own (the terminal, the markdown renderer,
 * the settings), in `keel web` and a real Chromium: while a chunk is on its way its place is kept,
 * so nothing moves when it arrives; a chunk that cannot be loaded says so where the part would be.
 */

const ANSWER = 'Done. Here is the script:\n\n```python\nprint("hello")\n```\n\nRun it with **python hello.py**.';

let browser: Browser;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  browser = await connectChromium();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  await browser?.close();
});

/** `keel web` on a folder of its own, with a scripted model that answers once in markdown. */
async function openWindow(): Promise<{ context: BrowserContext; page: Page; errors: string[]; url: string }> {
  const home = tempDir('lazy-home');
  const root = tempDir('lazy-ws');
  const folder = join(root.path, 'lazy-project');
  mkdirSync(folder);
  writeFileSync(join(home.path, 'settings.json'), '{}');
  const server = await startScriptedAnthropic({ apiKey: 'k', script: [reply(text(ANSWER))] });
  const keel = await startKeelWeb({ workspace: folder, keelHome: home.path, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' } });
  const opened = await newPage(browser);
  closers.push(async () => {
    await opened.context.close();
    await keel.stop();
    await server.close();
    home.remove();
    root.remove();
  });
  // Not loaded yet: the caller sets its routes first, then calls `load`.
  return { ...opened, url: keel.url };
}

async function load(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('section.chat-panel textarea').waitFor({ timeout: 30_000 });
}

/** Holds the requests for a chunk until released. */
async function holdChunk(context: BrowserContext, name: string): Promise<{ release(): void; asked: Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const wasAsked = new Promise<void>((resolve) => (asked = resolve));
  await context.route(`**/assets/${name}-*.js`, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { release, asked: wasAsked };
}

/** Where the window's big boxes are (x, y, width, height), to see that nothing moved. */
function boxes(page: Page): Promise<Record<string, number[] | null>> {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const rect = document.querySelector(selector)?.getBoundingClientRect();
      return rect ? [rect.x, rect.y, rect.width, rect.height].map(Math.round) : null;
    };
    return {
      header: box('header.app-header'),
      plan: box('#plan-pane'),
      chat: box('.chat-pane'),
      transcript: box('.chat-pane .transcript'),
      terminalBody: box('#terminal-body'),
      status: box('footer.status-bar'),
    };
  });
}

const sendMessage = async (page: Page, message: string) => {
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill(message);
  await composer.press('Enter');
};

describe('parts of the window in chunks of their own (keel web)', () => {
  test('while a chunk loads its place is kept, and nothing moves when it arrives', { timeout: 120_000 }, async () => {
    const { context, page, errors, url } = await openWindow();
    const terminal = await holdChunk(context, 'windowTerminalStore');
    const markdown = await holdChunk(context, 'renderBlock');
    await load(page, url);

    // The terminal, opened before xterm.js is there: the panel has its height, an empty body.
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    await terminal.asked;
    await page.locator('#terminal-body [data-part-loading="terminal"]').waitFor();
    // The model's answer, before the markdown renderer is there: the transcript keeps its box.
    await sendMessage(page, 'Write hello.py');
    await markdown.asked;
    await page.locator('.transcript [data-part-loading="markdown"]').waitFor({ timeout: 30_000 });
    await page.locator('footer.status-bar').getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    const before = await boxes(page);
    await screenshot(page, 'lazy-parts-loading');

    terminal.release();
    markdown.release();
    await page.locator('#terminal-pane .xterm-screen').waitFor({ timeout: 30_000 });
    await page.locator('.chat-assistant .md-code').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.chat-assistant').innerText()).toContain('Run it with python hello.py');
    const after = await boxes(page);
    await screenshot(page, 'lazy-parts-loaded');

    expect(before.terminalBody).not.toBeNull();
    expect(after).toEqual(before);
    expect(errors).toEqual([]);
  });

  test('a chunk that cannot be loaded shows an error where its part would be, not a blank area', { timeout: 120_000 }, async () => {
    const { context, page, url } = await openWindow();
    for (const name of ['windowTerminalStore', 'renderBlock', 'SettingsDialog'])
      await context.route(`**/assets/${name}-*.js`, (route) => route.abort('failed'));
    await load(page, url);

    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    await page
      .locator('#terminal-body')
      .getByRole('alert')
      .filter({ hasText: 'The terminal could not be loaded. Reload the window to try again.' })
      .waitFor({ timeout: 30_000 });

    await sendMessage(page, 'Write hello.py');
    await page.locator('.transcript').getByRole('alert').filter({ hasText: 'The message renderer could not be loaded.' }).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('alert').filter({ hasText: 'The settings could not be loaded.' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => dialog.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
    await screenshot(page, 'lazy-parts-failed');
    // Escape still closes it: the frame is the real dialog's.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
