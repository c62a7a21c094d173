import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolResults, toolResultText, toolUse } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The approval mode the status bar shows is the one the next command meets: after a change in
 * Settings, after a choice in the status bar, and in the next session, which says which mode it
 * starts in.
 */

const home = tempDir('mode-home');
const root = tempDir('mode-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);
writeFileSync(join(folder, 'notes.txt'), 'remember the milk\n');
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

let page: Page;

const modeButton = (): Locator => page.locator('.status-bar .approval-mode > button');
const cards = (): Locator => page.locator('section.chat-panel .approval-card');
const composer = (): Locator => page.getByRole('textbox', { name: 'Message to the agent' });

async function send(message: string): Promise<void> {
  await composer().fill(message);
  await composer().press('Enter');
}

// Registered before the window's own hooks, so the folders go only after the window has closed.
afterAll(() => {
  home.remove();
  root.remove();
});

const window = useScriptedWindow(
  {
    workspace: folder,
    keelHome: home.path,
    script: [
      reply(text('Reading it.'), toolUse('bash', { command: 'cat notes.txt' }, 'toolu_first')),
      reply(text('It says to remember the milk.')),
      reply(text('Again.'), toolUse('bash', { command: 'cat notes.txt' }, 'toolu_second')),
      reply(text('Still the milk.')),
    ],
  },
  60_000,
);

beforeAll(() => {
  page = window.page;
});

describe('the approval mode in force', () => {
  test('the status bar says what the next command does, after Settings and in a new session', async () => {
    await expect.poll(() => modeButton().innerText()).toBe('Ask first');
    await send('What do my notes say?');
    await cards().first().waitFor();
    await cards().first().getByRole('button', { name: 'Allow once' }).click();
    await page.locator('[data-agent-running="false"]').waitFor();

    // Settings → Full auto → Save: the dialog says this session uses it now, and the status bar agrees.
    await page.keyboard.press('Control+,');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    expect(await dialog.getByText('The default for new sessions.', { exact: false }).count()).toBe(1);
    await dialog.getByRole('radio', { name: /Full auto/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.locator('.saved-note').innerText()).toBe('Saved. This session now uses “Full auto”, and new sessions start with it.');
    await screenshot(page, 'settings-approval-mode-saved');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => modeButton().innerText()).toBe('Full auto');

    // The next command runs without a card, as the bar says.
    await send('Read them again');
    await expect.poll(() => window.server.requests.length).toBe(4);
    const result = toolResults(window.server.requests.at(-1)!).find((block) => block.tool_use_id === 'toolu_second');
    expect(toolResultText(result!)).toContain('remember the milk');
    expect(await cards().count()).toBe(0);

    // The status bar's choice carries to the next session, which announces it.
    await modeButton().click();
    await page.getByRole('menuitemradio', { name: /Ask first/ }).click();
    await expect.poll(() => modeButton().innerText()).toBe('Ask first');
    await page.getByRole('button', { name: 'New session' }).first().click();
    await expect.poll(() => page.locator('.chat-empty-mode').innerText()).toContain('This session starts in “Ask first”');
    expect(await modeButton().innerText()).toBe('Ask first');
    await page.keyboard.press('Control+,');
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /Ask first/ }).isChecked()).toBe(true);
    expect(window.errors).toEqual([]);
  }, 90_000);
});
