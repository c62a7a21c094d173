import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { connectKeelSocket, type KeelSocket } from './support/keelSocket';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The Changes view in `keel web`, in a real Chromium against a real `keel web` child and the
 * scripted model: the agent edits one file and creates another in a task; the view shows both
 * diffs; undo (after the confirmation) puts both back byte for byte; redo brings the agent's
 * versions back; a file the person changed since is a conflict, left alone until "Overwrite anyway".
 */

// Long, as a person's first message often is: the title wraps and the Undo buttons stay in view.
const TASK =
  'Greet in French and add notes — and while you are at it, keep the second line as it is, write the notes as a short checklist, and do not touch anything else in the folder';
const EXISTING = 'src/greeting.txt';
const CREATED = 'notes/todo.md';
// Known bytes: non-ASCII text, no newline at the end.
const ORIGINAL = Buffer.from('Hello, world\nsecond line\nthird line: café\nlast line', 'utf8');
const NEW_CONTENT = '# Notes\n\n- say bonjour\n- say au revoir\n';

const home = tempDir('changes-home');
const workspace = tempDir('changes-ws');
mkdirSync(join(workspace.path, 'src'));
writeFileSync(join(workspace.path, EXISTING), ORIGINAL);
// File changes run without asking.
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'full_auto' }));

const existingPath = join(workspace.path, EXISTING);
const createdPath = join(workspace.path, CREATED);

let server: ScriptedAnthropic;
let keel: KeelWeb;
let page: Page;
let socket: KeelSocket;
/** The agent's versions, read after the task. */
let agentExisting: Buffer;
let agentCreated: Buffer;

const panel = (): Locator => page.locator('section.changes-panel');
const changesButton = (): Locator => page.locator('header.app-header').getByRole('button', { name: /^Changes/ });
const fileRow = (path: string): Locator => panel().locator(`.changes-file[data-path="${path}"]`);
const dialog = (): Locator => page.getByRole('alertdialog');

/** Waits for the agent to have asked the model `requests` times in all and to be idle again (a poll right after Enter could see the idle before the task). */
async function taskFinished(requests: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const status = await socket.request('agent.status', {});
        return server.requests.length >= requests && status.ok && !status.value.running;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

const scripted = useScriptedWindow({
  workspace: workspace.path,
  keelHome: home.path,
  script: [
    reply(
      toolUse('edit_file', { path: EXISTING, old_text: 'Hello, world', new_text: 'Bonjour, le monde\nadded line' }),
      toolUse('write_file', { path: CREATED, content: NEW_CONTENT }),
    ),
    reply(text('done')),
  ],
});

beforeAll(async () => {
  ({ server, keel, page } = scripted);
  socket = await connectKeelSocket(keel.url);
});

afterAll(() => {
  socket?.close();
  home.remove();
  workspace.remove();
});

describe('the Changes view (keel web)', () => {
  test('before any change, the view explains what appears here', async () => {
    await changesButton().click();
    await panel().getByText('The agent has not changed any file yet.').waitFor();
    expect(await panel().innerText()).toContain('undo a whole task or one file');
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('changes-button'))).toBe(true);
  });

  test('the agent edits one file and creates another: both diffs show, grouped under the task', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill(TASK);
    await composer.press('Enter');
    await taskFinished(2);
    agentExisting = readFileSync(existingPath);
    agentCreated = readFileSync(createdPath);
    expect(agentExisting.toString('utf8')).toContain('Bonjour, le monde');
    expect(agentCreated.toString('utf8')).toBe(NEW_CONTENT);

    // The badge counts both files; the button's name says so.
    await page.getByRole('button', { name: 'Changes: 2 files changed by the agent' }).waitFor();
    await changesButton().click();
    const task = panel().locator('.changes-task');
    await task.waitFor();
    expect(await task.locator('.changes-task-title').innerText()).toContain(TASK);
    expect(await task.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-/);

    const edited = fileRow(EXISTING);
    expect(await edited.locator('.changes-chip').allInnerTexts()).toEqual(['Edited', 'Applied']);
    const editedDiff = edited.getByRole('region', { name: `Diff of ${EXISTING}` });
    expect(await editedDiff.locator('.diff-del .diff-text').allInnerTexts()).toEqual(['Hello, world']);
    expect(await editedDiff.locator('.diff-add .diff-text').allInnerTexts()).toEqual(['Bonjour, le monde', 'added line']);
    // Line numbers from the hunk header: the removed line was 1 before, the added ones 1 and 2 after.
    expect(await editedDiff.locator('.diff-add td:nth-child(2)').allInnerTexts()).toEqual(['1', '2']);
    expect(await editedDiff.locator('.diff-ctx .diff-text').first().innerText()).toBe('second line');

    const created = fileRow(CREATED);
    expect(await created.locator('.changes-chip').allInnerTexts()).toEqual(['Created', 'Applied']);
    const createdDiff = created.getByRole('region', { name: `Diff of ${CREATED}` });
    expect(await createdDiff.locator('.diff-add').count()).toBe(4);
    expect(await createdDiff.locator('.diff-del').count()).toBe(0);
    await screenshot(page, 'changes-list');
    // The long title wraps inside the card: "Undo task" and each "Undo file" lie within the panel.
    const panelBox = (await panel().boundingBox())!;
    for (const button of [task.getByRole('button', { name: `Undo task: ${TASK}` }), ...(await task.getByRole('button', { name: /^Undo file / }).all())]) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panelBox.x + panelBox.width);
      expect(box.x).toBeGreaterThanOrEqual(panelBox.x);
    }
    expect((await task.locator('.changes-task-title').boundingBox())!.height).toBeGreaterThan(25);

    // Each file's diff collapses and opens again from its toggle (keyboard).
    const toggle = created.getByRole('button', { name: `Diff of ${CREATED}` });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await createdDiff.waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    await createdDiff.waitFor();
  });

  test('undo the task, after a confirmation naming both files: both are back byte for byte', async () => {
    const undo = panel().getByRole('button', { name: `Undo task: ${TASK}` });
    // Cancel first: nothing changes.
    await undo.click();
    await dialog().waitFor();
    expect(
      await dialog()
        .getByRole('button', { name: 'Cancel' })
        .evaluate((element) => element === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(readFileSync(existingPath).equals(agentExisting)).toBe(true);

    await undo.click();
    await dialog().waitFor();
    const named = await dialog().locator('.changes-confirm-files li').allInnerTexts();
    expect(named).toHaveLength(2);
    expect(await dialog().locator('.dialog-text > p').first().innerText()).toMatch(/^These files go back/);
    expect(named.join('\n')).toContain(EXISTING);
    expect(named.join('\n')).toContain(`${CREATED} — created by the agent, it will be deleted`);
    await screenshot(page, 'changes-confirm');
    await dialog().getByRole('button', { name: 'Undo task' }).click();
    await dialog().waitFor({ state: 'detached' });

    // Main puts the files back one after the other: wait for each, not only the first.
    await expect.poll(() => readFileSync(existingPath).equals(ORIGINAL)).toBe(true);
    await expect.poll(() => existsSync(createdPath)).toBe(false);
    await expect.poll(() => fileRow(EXISTING).getAttribute('data-state')).toBe('undone');
    await expect.poll(() => fileRow(CREATED).getAttribute('data-state')).toBe('undone');
    // The edited file was restored; the created one was deleted, and the view says so.
    expect(await panel().locator('.changes-done').allInnerTexts()).toEqual([`Restored: ${EXISTING}`, `Deleted the file the agent created: ${CREATED}`]);
    expect(await fileRow(EXISTING).locator('.changes-just-done').innerText()).toBe('Restored');
    expect(await fileRow(CREATED).locator('.changes-just-done').innerText()).toBe('Deleted');
    await screenshot(page, 'changes-undone');
    // Escape closes the panel even with the focus nowhere (the confirmation has gone).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'detached' });
    await changesButton().click();
    await panel().locator('.changes-task').waitFor();
    await page.getByRole('button', { name: 'Changes', exact: true }).waitFor();
  });

  test("redo the task: the agent's versions are back", async () => {
    await panel()
      .getByRole('button', { name: `Redo task: ${TASK}` })
      .click();
    await expect.poll(() => existsSync(createdPath) && readFileSync(createdPath).equals(agentCreated)).toBe(true);
    await expect.poll(() => readFileSync(existingPath).equals(agentExisting)).toBe(true);
    await expect.poll(() => fileRow(EXISTING).getAttribute('data-state')).toBe('applied');
    expect(await panel().locator('.changes-done').innerText()).toMatch(/^Re-applied: /);
  });

  test('a file the person changed since is a conflict: left alone until "Overwrite anyway"', async () => {
    const mine = Buffer.from('my own edit\n', 'utf8');
    writeFileSync(existingPath, mine);

    await panel()
      .getByRole('button', { name: `Undo task: ${TASK}` })
      .click();
    await dialog().getByRole('button', { name: 'Undo task' }).click();
    await dialog().waitFor({ state: 'detached' });

    const conflicts = panel().locator('.changes-conflicts');
    await conflicts.waitFor();
    const conflict = conflicts.locator('.changes-conflict');
    expect(await conflict.count()).toBe(1);
    expect(await conflict.locator('.changes-path').innerText()).toBe(EXISTING);
    expect((await conflict.locator('.changes-conflict-reason').innerText()).length).toBeGreaterThan(5);
    // The question has the focus (given by an effect that runs a moment after the question renders).
    await expect.poll(() => conflicts.evaluate((element) => element === document.activeElement)).toBe(true);
    // The file the person did not touch was undone; theirs is left alone.
    await expect.poll(() => existsSync(createdPath)).toBe(false);
    expect(readFileSync(existingPath).equals(mine)).toBe(true);
    expect(await fileRow(EXISTING).getAttribute('data-state')).toBe('applied');
    await screenshot(page, 'changes-conflict');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'changes-conflict-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await conflict.getByRole('button', { name: `Overwrite ${EXISTING} anyway` }).click();
    await conflicts.waitFor({ state: 'detached' });
    await expect.poll(() => readFileSync(existingPath).equals(ORIGINAL)).toBe(true);
    await expect.poll(() => fileRow(EXISTING).getAttribute('data-state')).toBe('undone');
    expect((await panel().locator('.changes-done').allInnerTexts()).join('\n')).toContain(`Restored: ${EXISTING}`);
  });

  test('"Keep my version" leaves the person\'s file and says so', async () => {
    // Redo only the edited file, then change it, and undo it with the file's own button.
    await fileRow(EXISTING)
      .getByRole('button', { name: `Redo file ${EXISTING}` })
      .click();
    await expect.poll(() => readFileSync(existingPath).equals(agentExisting)).toBe(true);
    const mine = Buffer.from('mine again\n', 'utf8');
    writeFileSync(existingPath, mine);

    await fileRow(EXISTING)
      .getByRole('button', { name: `Undo file ${EXISTING}` })
      .click();
    expect(await dialog().locator('.changes-confirm-files li').allInnerTexts()).toEqual([EXISTING]);
    // One file: said in the singular.
    expect(await dialog().locator('.dialog-text > p').first().innerText()).toMatch(/^This file goes back to how it was before/);
    await dialog().getByRole('button', { name: 'Undo file' }).click();
    const conflicts = panel().locator('.changes-conflicts');
    await conflicts.waitFor();
    await conflicts.getByRole('button', { name: `Keep my version of ${EXISTING}` }).click();
    await conflicts.waitFor({ state: 'detached' });
    expect(await panel().locator('.changes-kept').innerText()).toBe(`Kept your version: ${EXISTING}`);
    expect(readFileSync(existingPath).equals(mine)).toBe(true);
  });
});
