import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';

// The welcome screen, reached with no folder open: the folder field has the keyboard at once, and
// the page has its one top heading.

const home = tempDir('welcome-home');
let keel: KeelWeb;
let browser: Browser;

beforeAll(async () => {
  keel = await startKeelWeb({ keelHome: home.path });
  browser = await connectChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  home.remove();
});

describe('the welcome screen', () => {
  test('focuses the folder field, and names itself with an h1', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(keel.url);
    await page.locator('.welcome-card').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.welcome-card') !== null && document.activeElement?.tagName)).toBe('INPUT');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Open a folder to start');
    // Typing goes straight into the field.
    await page.keyboard.type('/tmp');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('/tmp');
    await screenshot(page, 'welcome-focused');
    expect(errors).toEqual([]);
  }, 60_000);
});
