import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { tempDir } from './support/keelWeb';
import { withScriptedWindow } from './support/scriptedWindow';

/*
 * The focus never falls to the page's body when the element that had it goes away: after the
 * last approval card is answered, after Stop (button or Esc), and after Settings closes when the
 * "Connect a model" card that opened it has gone, it is in the message box, where the person goes on.
 */

const root = tempDir('focus-ws');
afterAll(() => root.remove());

/** A command that runs until the test makes the file `go` in the folder. */
const WAIT = 'echo waiting; while [ ! -f go ]; do sleep 0.1; done';

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element === document.body ? 'body' : element?.id || element?.className || element?.tagName || '';
  });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message to the agent' });

async function send(page: Page, message: string): Promise<void> {
  await composer(page).fill(message);
  await composer(page).press('Enter');
}

/** Answers the card with the keyboard: Tab from the card to "Allow once", then Enter. */
async function allowWithKeyboard(page: Page): Promise<void> {
  const card = page.locator('section.chat-panel .approval-card');
  await card.waitFor();
  await expect.poll(() => focused(page)).toBe('approval-card');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
  await page.keyboard.press('Enter');
  await expect.poll(() => card.count()).toBe(0);
}

describe('the focus returns to the message box', () => {
  test('after an approval is answered, after Stop and after Esc', async () => {
    const folder = join(root.path, 'stop');
    mkdirSync(folder);
    await withScriptedWindow(
      {
        workspace: folder,
        settings: { approvalMode: 'ask' },
        script: [
          reply(text('Waiting.'), toolUse('bash', { command: WAIT }, 'toolu_one')),
          reply(text('Waiting again.'), toolUse('bash', { command: WAIT }, 'toolu_two')),
          reply(text('And once more.'), toolUse('bash', { command: WAIT }, 'toolu_three')),
        ],
      },
      async ({ page }) => {
        // The last card answered: the message box, not the body.
        await send(page, 'Wait for the file');
        await allowWithKeyboard(page);
        expect(await focused(page)).toBe('composer-input');

        // Stop with the button: the button leaves with the task, the focus is in the message box.
        await page.locator('.chat-panel .tool-card.phase-running').waitFor();
        await page.locator('.chat-panel .button-stop').click();
        await page.locator('[data-agent-running="false"]').waitFor();
        expect(await focused(page)).toBe('composer-input');

        // Esc with the focus nowhere (on the body): the task stops and the message box has the focus.
        rmSync(join(folder, 'go'), { force: true });
        await send(page, 'Wait again');
        await allowWithKeyboard(page);
        await page.locator('.chat-panel .tool-card.phase-running').waitFor();
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        expect(await focused(page)).toBe('body');
        await page.keyboard.press('Escape');
        await page.locator('[data-agent-running="false"]').waitFor();
        expect(await focused(page)).toBe('composer-input');
        writeFileSync(join(folder, 'go'), '');
      },
    );
  }, 90_000);

  test('after Settings, opened from the "Connect a model" card, closes once a key is saved', async () => {
    const folder = join(root.path, 'key');
    mkdirSync(folder);
    await withScriptedWindow({ workspace: folder, keelKey: null, script: [] }, async ({ page }) => {
      // A new session's card offers to connect a model; it goes away once a key is saved.
      const banner = page.locator('.chat-empty .connect-model');
      await banner.getByRole('button', { name: 'Connect a model' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.waitFor();
      await dialog.getByLabel('API key').fill('k');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => banner.count()).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await focused(page)).toBe('composer-input');
    });
  }, 60_000);
});
