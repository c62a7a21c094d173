import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { tempDir } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';

/*
 * In a folder that is not a git repository helpers take turns in the folder itself, and the board
 * says why, once, above the plan (issue 25.3); the helper's answer is folded under its step, and is
 * there again when the session is resumed after Keel restarts (25.5).
 */

const TASK = 'Tidy the notes with a helper';
const INSTRUCTIONS = 'Tidy notes.txt.';

const home = tempDir('helpers-inplace-home');
const workspace = tempDir('helpers-inplace-ws');
let scripted: ScriptedWindow;
let page: Page;

beforeAll(async () => {
  scripted = await openScriptedWindow({
    workspace: workspace.path,
    keelHome: home.path,
    model: {
      agents: [
        {
          name: 'main',
          firstMessage: (first) => first.startsWith(TASK),
          script: [
            reply(toolUse('todo', { items: [{ id: 'tidy', content: 'Tidy the notes' }] })),
            reply(toolUse('delegate', { item: 'tidy', instructions: INSTRUCTIONS })),
            reply(toolUse('todo', { items: [{ id: 'tidy', content: 'Tidy the notes', status: 'completed' }] })),
            reply(text('The notes are tidy.')),
          ],
        },
        { name: 'helper', firstMessage: (first) => first.includes(INSTRUCTIONS), script: [reply(text('Nothing needed tidying.'))] },
      ],
    },
  });
  page = scripted.page;
}, 90_000);

afterAll(async () => {
  await scripted?.close();
  home.remove();
  workspace.remove();
});

describe('helpers outside git (keel web)', () => {
  test('the board says once why helpers take turns, and folds the answer', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill(TASK);
    await page.keyboard.press('Enter');
    const helper = page.locator('section.helper-panel[data-helper-id="helper-1"]');
    await expect.poll(() => helper.getAttribute('data-helper-state'), { timeout: 15_000 }).toBe('done');
    await expect
      .poll(() => page.locator('.helpers-not-git').allInnerTexts())
      .toEqual(['Helpers run one at a time in this folder, because it is not a git repository.']);
    const answer = helper.locator('details.helper-answer');
    expect(await answer.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    await answer.getByText('Answer').click();
    expect(await helper.locator('.helper-answer-text').innerText()).toBe('Nothing needed tidying.');
  }, 60_000);

  test('a resumed session shows the finished helper and its answer', async () => {
    await expect.poll(() => scripted.server.agent('main').remaining, { timeout: 15_000 }).toBe(0);
    // The page leaves first: while keel web is down, an open page's reconnects are refused (and logged).
    await page.goto('about:blank');
    await scripted.restartKeel();
    await page.goto(scripted.keel.url);
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    const helper = page.locator('section.helper-panel[data-helper-id="helper-1"]');
    await expect.poll(() => helper.getAttribute('data-helper-state'), { timeout: 15_000 }).toBe('done');
    await helper.getByText('Answer').click();
    expect(await helper.locator('.helper-answer-text').innerText()).toBe('Nothing needed tidying.');
  }, 60_000);
});
