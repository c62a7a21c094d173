import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { lastMessage, reply, text, textOf } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { withScriptedWindow } from './support/scriptedWindow';

/*
 * First contact with no model set up: the welcome card (no folder) and a new session's card offer
 * "Connect a model", which opens Settings with the focus in the API key field; a task that failed
 * for want of a key offers "Try again", which sends the request again once the key is in.
 */

const root = tempDir('connect-ws');
afterAll(() => root.remove());

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element instanceof HTMLInputElement ? (element.labels?.[0]?.textContent ?? '') : (element?.tagName ?? '');
  });

describe('connect a model', () => {
  test('the welcome card offers it with no key, and Settings opens at the key, base URL and model', async () => {
    await withScriptedWindow(
      { workspace: null, keelKey: null, connectModel: false, script: [reply(text('pong'))], ready: (page) => page.locator('.welcome-card').waitFor() },
      async ({ page, server }) => {
        const card = page.locator('.welcome-card .connect-model');
        await card.waitFor();
        expect(await card.getByRole('heading').innerText()).toBe('Connect a model');
        await screenshot(page, 'welcome-connect-model');
        await card.getByRole('button', { name: 'Connect a model' }).click();
        const dialog = page.getByRole('dialog', { name: 'Settings' });
        await dialog.waitFor();
        await expect.poll(() => focusedLabel(page)).toBe('API key');
        await page.keyboard.type('k');
        await dialog.getByLabel('Base URL').fill(server.baseURL);
        await dialog.getByRole('button', { name: 'Test connection' }).click();
        await expect.poll(() => dialog.getByText('answered', { exact: false }).count()).toBeGreaterThan(0);
        await dialog.getByRole('button', { name: 'Save' }).click();
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count()).toBe(0);
        // Connected: the card no longer offers it.
        await expect.poll(() => card.count()).toBe(0);
      },
    );
  }, 60_000);

  test('a task refused for want of a key offers Try again, which sends it again once the key is in', async () => {
    const folder = join(root.path, 'project');
    mkdirSync(folder);
    await withScriptedWindow({ workspace: folder, keelKey: null, script: [reply(text('Connected and working.'))] }, async ({ page, server }) => {
      // A new session says it up front (one card, no banner on top of it).
      const connect = page.locator('.chat-empty .connect-model');
      await connect.waitFor();
      expect(await page.locator('.no-key-banner').count()).toBe(0);
      await screenshot(page, 'chat-empty-connect-model');

      const composer = page.getByRole('textbox', { name: 'Message to the agent' });
      await composer.fill('Say hello');
      await composer.press('Enter');
      const error = page.locator('section.chat-panel [data-outcome="error"]');
      await error.waitFor();
      expect(await error.getAttribute('data-error-kind')).toBe('no_key');
      expect(server.requests.length).toBe(0);
      await screenshot(page, 'chat-error-no-key-retry');

      await error.getByRole('button', { name: 'Open settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.waitFor();
      await expect.poll(() => focusedLabel(page)).toBe('API key');
      await page.keyboard.type('k');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);

      await error.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => server.requests.length).toBe(1);
      expect(textOf(lastMessage(server.requests[0]!))).toBe('Say hello');
      await page.getByText('Connected and working.').waitFor();
    });
  }, 60_000);
});
