import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { tempDir } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { gate } from './support/heldAnswer';
import { commitFolder } from '../support/gitRepo';

/*
 * A helper stopped after it changed a file keeps its worktree (issue 25.5): the board lists the file
 * with Merge and Discard, and Discard drops the change, the folder as it was.
 */

const TASK = 'Draft the notes with a helper';
const INSTRUCTIONS = 'Draft notes.txt.';

const home = tempDir('helpers-kept-home');
const workspace = tempDir('helpers-kept-ws');
const held = gate();
let scripted: ScriptedWindow;
let page: Page;
const panel = (): Locator => page.locator('section.helper-panel[data-helper-id="helper-1"]');

beforeAll(async () => {
  writeFileSync(join(workspace.path, 'README.md'), '# Notes\n');
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
            reply(toolUse('todo', { items: [{ id: 'notes', content: 'Draft the notes' }] })),
            reply(toolUse('delegate', { item: 'notes', instructions: INSTRUCTIONS })),
            reply(text('The helper was stopped; its draft waits on the board.')),
            reply(text('Over to you.')),
            reply(text('Still over to you.')),
          ],
        },
        {
          name: 'helper',
          firstMessage: (first) => first.includes(INSTRUCTIONS),
          script: [reply(toolUse('write_file', { path: 'notes.txt', content: 'A first draft.\n' })), held.step],
        },
      ],
    },
  });
  page = scripted.page;
}, 90_000);

afterAll(async () => {
  held.release(reply(text('Stopped.')));
  await scripted?.close();
  home.remove();
  workspace.remove();
});

describe('a stopped helper’s kept worktree (keel web)', () => {
  test('lists its file with Merge and Discard, and Discard leaves the folder as it was', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill(TASK);
    await page.keyboard.press('Enter');
    await held.arrived;
    await panel().getByRole('button', { name: 'Stop helper-1' }).click();

    await expect.poll(() => panel().getAttribute('data-helper-state'), { timeout: 15_000 }).toBe('stopped');
    await expect.poll(() => panel().locator('.helper-kept-title').innerText(), { timeout: 10_000 }).toBe('Its changes wait in its worktree:');
    expect(await panel().locator('.helper-files .helper-file').allInnerTexts()).toEqual(['notes.txt']);
    expect(await panel().getByRole('button', { name: 'Take its version' }).count()).toBe(0);
    expect(existsSync(join(workspace.path, 'notes.txt'))).toBe(false);

    await panel().getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => panel().locator('.helper-merge').innerText(), { timeout: 10_000 }).toBe('Its changes were discarded.');
    expect(await panel().locator('.helper-kept').count()).toBe(0);
    expect(existsSync(join(workspace.path, 'notes.txt'))).toBe(false);
  }, 60_000);
});
