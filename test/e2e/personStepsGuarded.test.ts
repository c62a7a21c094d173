import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolResults, toolResultText, toolUse, type ScriptedRequest, type StaticStep } from '../support/scriptedAnthropic';
import { addStep, board, boardVersion, screenshot, stepTexts, waitForNewVersion } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * A step the person adds stays theirs for the whole task: the model's answer written before it saw
 * the step is refused, its next plan keeps the step, and the plan after that drops it. That drop
 * is named on the board and in the chat with Put it back, and the model is told in its todo result.
 */

const READ = 'Read the code';
const WRITE = 'Write the fix';
const MINE = 'Update the changelog';

const home = tempDir('guard-home');
const root = tempDir('guard-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);

let arrive!: () => void;
let answer!: (step: StaticStep) => void;
const held = new Promise<void>((resolve) => (arrive = resolve));
const released = new Promise<StaticStep>((resolve) => (answer = resolve));
const hold = (_request: ScriptedRequest) => (arrive(), released);

let page: Page;
const chat = (): Locator => page.locator('section.chat-panel');

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
      reply(text('My plan.'), toolUse('todo', { items: [{ content: READ, status: 'in_progress' }, { content: WRITE }] })),
      hold,
      reply(toolUse('todo', { items: [{ content: READ, status: 'completed' }, { content: WRITE, status: 'in_progress' }, { content: MINE }] }, 'toolu_kept')),
      reply(
        toolUse('todo', {
          items: [
            { content: READ, status: 'completed' },
            { content: WRITE, status: 'completed' },
          ],
        }),
      ),
      reply(text('All done.')),
    ],
  },
  60_000,
);

beforeAll(() => {
  page = window.page;
});

describe('the person’s step, for the whole task', () => {
  test('dropped by the second plan after it was added: named on the board and in the chat, put back in one click', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Fix the bug');
    await composer.press('Enter');
    await held;
    await expect.poll(() => stepTexts(page)).toEqual([READ, WRITE]);
    await addStep(page, MINE);
    // Written before the model saw the step: refused as stale. Then a plan that keeps it, then one that drops it.
    answer(
      reply(
        toolUse('todo', {
          items: [
            { content: READ, status: 'completed' },
            { content: WRITE, status: 'in_progress' },
          ],
        }),
      ),
    );

    const notice = chat().locator('.notice-plan_override');
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.innerText()).toContain(`The agent removed your step “${MINE}”`);
    const onBoard = board(page).locator('.board-overrides');
    await onBoard.waitFor();
    expect(await onBoard.innerText()).toContain(`The agent removed your step “${MINE}”`);
    await expect.poll(() => window.server.requests.length).toBe(5);
    // The model read which of the person's steps its call removed.
    const told = toolResults(window.server.requests[4]!).map(toolResultText).join('\n');
    expect(told).toContain(`it removes the person's step "${MINE}"`);
    await page.locator('[data-agent-running="false"]').waitFor();
    await screenshot(page, 'person-step-dropped-later');

    // The cards say who changed what: the plan that kept the step did not add it, the person did.
    const kept = chat().locator('.tool-card[data-tool-id="toolu_kept"]');
    const readCards = async () => {
      expect(await kept.locator('.tool-summary').innerText()).toBe('3 steps, 1 done');
      await kept.locator('.tool-head').click();
      expect(await kept.getByRole('list', { name: 'Your edits since the agent’s previous plan' }).innerText()).toContain(`Added “${MINE}”`);
      expect(await kept.getByRole('list', { name: 'What the agent changed' }).innerText()).not.toContain('Added');
      await kept.locator('.tool-head').click();
    };
    await readCards();
    // After a reload, from the transcript: the same.
    await page.reload();
    await kept.waitFor();
    await readCards();

    const version = await boardVersion(page);
    await onBoard.locator('[data-override="dropped"]').getByRole('button', { name: 'Put it back' }).click();
    await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toContain(MINE);
    await notice.locator('[data-override="dropped"]').getByText('Done').waitFor();
    expect(window.errors).toEqual([]);
    expect(window.server.errors).toEqual([]);
  }, 90_000);
});
