import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text } from '../support/scriptedAnthropic';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * A window that reloads, or a second tab that opens, while the answer streams shows all of it
 * from its first word, and the words that follow once: no part lost, none shown twice.
 */

const home = tempDir('answer-home');
const root = tempDir('answer-ws');

const ANSWER = 'Alpha opens the answer, then bravo, charlie, delta, echo, foxtrot, golf, hotel, india and juliet close it.';

let page: Page;

afterAll(() => {
  home.remove();
  root.remove();
});

// The answer streams slowly, and stops a while once "bravo" is out (the fifth event: message and
// block start, then twelve characters a delta), so the window reloads in the middle of it.
let sent = 0;
const chunkDelayMs = (): number => (++sent === 6 ? 3000 : 100);
const window = useScriptedWindow({ workspace: root.path, keelHome: home.path, script: [{ ...reply(text(ANSWER)), chunkDelayMs }] }, 60_000);

beforeAll(() => {
  page = window.page;
});

const answers = (on: Page) => on.locator('section.chat-panel .chat-assistant');

describe('an answer that streams while the window reloads', () => {
  test('is whole and once in the reloaded window and in a second tab', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Spell the alphabet');
    await composer.press('Enter');
    await expect.poll(() => answers(page).first().innerText(), { timeout: 10_000 }).toContain('bravo');

    await page.reload();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    const second = await window.openPage();
    for (const on of [page, second]) {
      // It starts with its first word, although the transcript had none of it when the window loaded.
      await expect.poll(() => answers(on).first().innerText()).toMatch(/^Alpha opens the answer/);
    }
    for (const on of [page, second]) {
      await on.locator('[data-agent-running="false"]').waitFor({ timeout: 20_000 });
      expect(await answers(on).count()).toBe(1);
      expect((await answers(on).innerText()).trim()).toBe(ANSWER);
    }

    // After the task, a reload reads the answer from the transcript: the same, once.
    await page.reload();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    await expect.poll(() => answers(page).count()).toBe(1);
    expect((await answers(page).innerText()).trim()).toBe(ANSWER);
    await window.closePages();
  }, 90_000);
});
