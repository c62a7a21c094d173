import { mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { sandboxWorksHere } from '../support/sandboxProbe';

// The status bar says whether the agent's commands run sandboxed, in words, and follows the
// sandbox live: checked at start, and unavailable (with why) the moment its helper ends.

const works = await sandboxWorksHere('the "Sandboxed (bwrap)" status bar test');

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

async function open(name: string, env: Record<string, string>): Promise<{ page: Page; keel: KeelWeb; folder: string }> {
  const home = tempDir(`${name}-home`);
  const root = tempDir(`${name}-ws`);
  const folder = join(root.path, 'project');
  mkdirSync(folder);
  const keel = await startKeelWeb({ workspace: folder, keelHome: home.path, env });
  const page = (await newPage(browser)).page;
  cleanups.push(
    () => page.close(),
    () => keel.stop(),
    () => home.remove(),
    () => root.remove(),
  );
  await page.goto(keel.url);
  return { page, keel, folder };
}

const sandboxItem = (page: Page) => page.locator('.status-bar .status-sandbox');

/** The sandbox helper Keel started for `folder`: the process marked by KEEL_SANDBOX_HELPER whose working directory is the folder. */
function helperPid(folder: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== folder) continue;
      if (
        readFileSync(`/proc/${entry}/environ`, 'utf8')
          .split('\0')
          .some((v) => v.startsWith('KEEL_SANDBOX_HELPER='))
      )
        return Number(entry);
    } catch {
      // a process that ended meanwhile, or not ours
    }
  }
  return null;
}

beforeAll(async () => {
  browser = await connectChromium();
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

describe('the sandbox state in the status bar', () => {
  test.runIf(works)(
    'says "Sandboxed (bwrap)" once the check passed, and "Not sandboxed: why" as soon as the helper dies',
    async () => {
      const { page, folder } = await open('sandbox-on', { KEEL_SANDBOX: 'auto' });
      const item = sandboxItem(page);
      await expect.poll(() => item.innerText(), { timeout: 30_000 }).toBe('Sandboxed (bwrap)');
      expect(await item.getAttribute('title')).toMatch(/write only in this folder/);
      await screenshot(page, 'status-sandbox-on');

      const pid = helperPid(folder);
      expect(pid).not.toBeNull();
      process.kill(pid!, 'SIGKILL');
      // No reload: the sandbox.changed event carries it.
      await expect.poll(() => item.innerText(), { timeout: 15_000 }).toMatch(/^Not sandboxed: the sandbox helper ended \(SIGKILL\)/);
      expect(await item.getAttribute('data-sandbox')).toBe('unavailable');
      await screenshot(page, 'status-sandbox-lost');
    },
    90_000,
  );

  test('says "Not sandboxed" with the reason when the check fails (no bubblewrap on PATH)', async () => {
    const { page } = await open('sandbox-none', { KEEL_SANDBOX: 'auto', PATH: '/nonexistent' });
    const item = sandboxItem(page);
    await expect.poll(() => item.innerText(), { timeout: 30_000 }).toMatch(/^Not sandboxed: \S/);
    expect(await item.getAttribute('title')).toMatch(/Commands ask before they run/);
  }, 90_000);

  test('says "Sandbox unavailable" and that commands cannot run when the sandbox is required', async () => {
    const { page } = await open('sandbox-required', { KEEL_SANDBOX: 'required', PATH: '/nonexistent' });
    const item = sandboxItem(page);
    await expect.poll(() => item.innerText(), { timeout: 30_000 }).toMatch(/^Sandbox unavailable: \S/);
    expect(await item.getAttribute('title')).toMatch(/cannot run commands/);
  }, 90_000);

  test('says "Not sandboxed: turned off" when the setting is off', async () => {
    const { page } = await open('sandbox-off', { KEEL_SANDBOX: 'off' });
    await expect.poll(() => sandboxItem(page).innerText(), { timeout: 30_000 }).toBe('Not sandboxed: turned off');
  }, 90_000);
});
