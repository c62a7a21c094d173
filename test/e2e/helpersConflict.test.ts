import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { gate } from './support/heldAnswer';
import { accessibilityProblems } from './support/axe';
import { commitFolder } from '../support/gitRepo';

/*
 * A helper whose change conflicts with the folder, on the board (issue 25.3): its command's
 * approval card says which helper asks while its step says it waits for approval; the folder keeps the
 * person's text, the step's helper says "conflict" with the file, Open shows its worktree and the
 * folder's text against the helper's, and "Take its version" merges it into the folder.
 */

const TASK = 'Reword the README with a helper';
const INSTRUCTIONS = 'Rewrite README.md in plain words.';
const START = '# Parser\n\nLines in, lines out.\n';
const THEIRS = '# Parser\n\nIt splits text into lines.\n';
const OURS = '# Parser\n\nThe person wrote this line meanwhile.\n';

const home = tempDir('helper-conflict-home');
const workspace = tempDir('helper-conflict-ws');
const written = gate();
let scripted: ScriptedWindow;
let page: Page;

const panel = (p: Page): Locator => p.locator('section.helper-panel[data-helper-id="helper-1"]');
const readme = () => readFileSync(join(workspace.path, 'README.md'), 'utf8');

beforeAll(async () => {
  writeFileSync(join(workspace.path, 'README.md'), START);
  commitFolder(workspace.path);
  scripted = await openScriptedWindow({
    workspace: workspace.path,
    keelHome: home.path,
    model: {
      agents: [
        {
          name: 'main',
          firstMessage: (first) => first.startsWith(TASK),
          script: [
            reply(toolUse('todo', { items: [{ id: 'readme', content: 'Reword the README' }] })),
            reply(toolUse('delegate', { item: 'readme', instructions: INSTRUCTIONS })),
            // The conflict is the person's to settle: the agent says so (and the gate may ask again).
            reply(text('The helper’s README conflicts with yours: it is on the board.')),
            reply(text('Waiting for you to merge or discard it.')),
            reply(text('Still waiting for you.')),
          ],
        },
        {
          name: 'helper',
          firstMessage: (first) => first.includes(INSTRUCTIONS),
          script: [reply(toolUse('bash', { command: 'mkdir -p build' })), reply(toolUse('write_file', { path: 'README.md', content: THEIRS })), written.step],
        },
      ],
    },
  });
  page = scripted.page;
}, 90_000);

afterAll(async () => {
  written.release(reply(text('Done.')));
  await scripted?.close();
  home.remove();
  workspace.remove();
});

describe('a helper’s conflict on the board (keel web)', () => {
  test('asks as itself, then leaves the folder as it is and shows the conflict with its file', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill(TASK);
    await page.keyboard.press('Enter');
    // Its command waits for the person: the card says which helper asks, the board what it waits for.
    const card = page.locator('section.approval-card[data-helper="helper-1"]');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.locator('.approval-helper').innerText()).toBe('Asked by helper-1');
    await expect.poll(() => panel(page).locator('.helper-state').innerText()).toBe('waiting for approval of bash');
    await screenshot(page, 'helpers-approval-1280-light');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await written.arrived;
    // The person changes the same line while the helper works in its own worktree.
    expect(readme()).toBe(START);
    writeFileSync(join(workspace.path, 'README.md'), OURS);
    written.release(reply(text('Rewrote the README in plain words.')));

    await expect.poll(() => panel(page).getAttribute('data-helper-state'), { timeout: 15_000 }).toBe('conflict');
    expect(await panel(page).locator('.helper-state').innerText()).toBe('conflict');
    expect(await panel(page).locator('.helper-files .helper-file').allInnerTexts()).toEqual(['README.md']);
    expect(readme()).toBe(OURS);
  }, 60_000);

  test('Open shows its worktree and the folder’s text against the helper’s', async () => {
    await panel(page).getByRole('button', { name: 'Open the version of helper-1' }).click();
    const version = panel(page).locator('.helper-version');
    await expect.poll(() => version.locator('.helper-worktree code').innerText()).not.toBe('');
    const diff = await version.locator('.helper-version-file').first().innerText();
    expect(diff).toContain('The person wrote this line meanwhile.');
    expect(diff).toContain('It splits text into lines.');
    await screenshot(page, 'helpers-conflict-1280-light');
    expect(await accessibilityProblems(page)).toEqual([]);
  }, 30_000);

  test('"Take its version" merges the helper’s file into the folder', async () => {
    await panel(page).getByRole('button', { name: 'Take its version' }).click();
    await expect.poll(() => panel(page).getAttribute('data-helper-state'), { timeout: 10_000 }).not.toBe('conflict');
    await expect.poll(readme).toBe(THEIRS);
    await expect.poll(() => panel(page).locator('.helper-kept').count()).toBe(0);
  }, 30_000);
});
