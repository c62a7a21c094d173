import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { addStep, board, boardVersion, row, screenshot, stepTexts, waitForNewVersion } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { connectKeelSocket } from './support/keelSocket';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';

/*
 * The plan board in `keel web`, driven in a real Chromium against a real `keel web` child.
 * The tests run in order and share one folder: each builds on the plan the one before left.
 */

const READ = 'Read the existing code';
const WRITE = 'Write hello.py';
const RUN = 'Run it and check the output';
const REFUSAL = 'Only one step can be in progress: “Read the existing code” already is.';

const home = tempDir('home');
const root = tempDir('ws');
const folder = join(root.path, 'demo-project');
mkdirSync(folder);

let browser: Browser;
let keel: KeelWeb;
/** The pages a test opened; closed after it, and none may have logged an error. */
let openPages: { page: Page; errors: string[] }[] = [];

async function open(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const opened = await newPage(browser, options);
  openPages.push(opened);
  await opened.page.goto(keel.url);
  return opened.page;
}

/** Waits until the board shows the plan (the stored version is known). */
async function openBoard(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const page = await open(options);
  await board(page).waitFor();
  return page;
}

const statusOf = (page: Page, content: string) => page.getByRole('combobox', { name: `Status of ${content}`, exact: true });

beforeAll(async () => {
  browser = await connectChromium();
  keel = await startKeelWeb({ keelHome: home.path });
});

afterEach(async () => {
  const pages = openPages;
  openPages = [];
  await Promise.all(pages.map(({ page }) => page.context().close()));
  // No page may have hit a script error or a CSP violation.
  expect(pages.flatMap((p) => p.errors)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  home.remove();
  root.remove();
});

describe('plan board (keel web)', () => {
  test('opens a folder typed into the header and shows its name and path', async () => {
    const page = await open();
    await expect.poll(() => page.getByText('No folder open').first().isVisible()).toBe(true);

    const path = page.getByLabel('Folder path');
    await path.fill(join(root.path, 'no-such-folder'));
    await page.getByRole('button', { name: 'Open folder' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('does not exist');

    await path.fill(folder);
    await path.press('Enter');
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();
    expect(await page.locator('.workspace-path').innerText()).toBe(realpathSync(folder));
    expect(await page.title()).toBe('demo-project — Keel');
    expect(await page.getByRole('alert').count()).toBe(0);

    await board(page).waitFor();
    expect(await board(page).innerText()).toContain('No plan yet.');
    expect(await board(page).innerText()).toContain('checklist for the current task');
    await screenshot(page, 'empty-board');
  });

  test('builds a plan: add, reorder by keyboard and by drag, refused second in_progress, complete', async () => {
    const page = await openBoard();
    await addStep(page, READ);
    await addStep(page, WRITE);
    await addStep(page, RUN);
    expect(await stepTexts(page)).toEqual([READ, WRITE, RUN]);
    expect(await board(page).innerText()).toContain('Last change: you');

    // Keyboard: Alt+ArrowUp on the focused step moves it, and focus stays with it.
    let version = await boardVersion(page);
    await page.getByRole('button', { name: RUN, exact: true }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, RUN, WRITE]);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(RUN);

    // Drag and drop: the handle of RUN onto the lower half of WRITE puts it after WRITE.
    const target = row(page, WRITE);
    const box = (await target.boundingBox())!;
    await row(page, RUN)
      .locator('.drag-handle')
      .dragTo(target, { targetPosition: { x: box.width / 2, y: box.height - 4 } });
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, WRITE, RUN]);

    // One in progress is fine.
    await statusOf(page, READ).selectOption('in_progress');
    version = await waitForNewVersion(page, version);
    expect(await row(page, READ).innerText()).toContain('In progress');

    // A second is refused: the validator's words next to that item; the board keeps the stored plan.
    await statusOf(page, WRITE).selectOption('in_progress');
    const refusal = row(page, WRITE).getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(REFUSAL);
    expect(await boardVersion(page)).toBe(version);
    expect(await statusOf(page, WRITE).inputValue()).toBe('pending');
    expect(await statusOf(page, READ).inputValue()).toBe('in_progress');
    expect(await row(page, READ).getByRole('alert').count()).toBe(0);
    await screenshot(page, 'refusal-shown');

    // Completing one clears the refusal and moves progress on.
    await statusOf(page, READ).selectOption('completed');
    await waitForNewVersion(page, version);
    // The new version can arrive as an event a moment before the edit's own answer clears the message.
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await row(page, READ).innerText()).toContain('Completed');
    expect(await board(page).innerText()).toContain('1 of 3 completed');
    const bar = page.getByRole('progressbar', { name: 'Plan progress' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('1');
    expect(await bar.getAttribute('aria-valuemax')).toBe('3');
  });

  test("shows the in-progress item's activeForm and who made the last change", async () => {
    const page = await openBoard();
    const version = await boardVersion(page);
    // The agent's todo tool sets activeForm; here another client writes the same kind of list.
    const socket = await connectKeelSocket(keel.url);
    const current = await socket.request('plan.get', {});
    if (!current.ok) throw new Error(current.error.message);
    const items = current.value.items.map((item) => (item.content === WRITE ? { ...item, status: 'in_progress', activeForm: 'Writing hello.py' } : item));
    const edited = await socket.request('plan.edit', { baseVersion: current.value.version, items });
    socket.close();
    expect(edited.ok).toBe(true);

    await waitForNewVersion(page, version);
    expect(await row(page, WRITE).innerText()).toContain('Writing hello.py');
    expect(await board(page).innerText()).toContain('1 of 3 completed');
    expect(await board(page).locator('.board-source').innerText()).toMatch(/^Last change: you/);
    await page.mouse.move(1000, 700);
    await screenshot(page, 'filled-board');
  });

  test('a reload shows the same stored plan', async () => {
    const page = await openBoard();
    const before = { steps: await stepTexts(page), version: await boardVersion(page) };
    await page.reload();
    await board(page).waitFor();
    expect({ steps: await stepTexts(page), version: await boardVersion(page) }).toEqual(before);
    expect(await statusOf(page, READ).inputValue()).toBe('completed');
    expect(await statusOf(page, WRITE).inputValue()).toBe('in_progress');
  });

  test('the plan survives stopping keel web and starting it again on the same KEEL_HOME', async () => {
    const page = await openBoard();
    const version = await boardVersion(page);
    await page.context().close();
    await keel.stop();
    keel = await startKeelWeb({ keelHome: home.path, workspace: folder });

    const again = await openBoard();
    expect(await again.getByRole('heading', { name: 'demo-project' }).isVisible()).toBe(true);
    expect(await stepTexts(again)).toEqual([READ, WRITE, RUN]);
    expect(await boardVersion(again)).toBe(version);
    expect(await statusOf(again, READ).inputValue()).toBe('completed');
    expect(await again.locator('.progress-text').innerText()).toBe('1 of 3 completed');
  });

  test('a stale edit is refused as a conflict and the board shows the current plan', async () => {
    // Page A's socket is routed so that the test can hold back the events that would update it,
    // as when someone else's change is still on its way while the person edits.
    const { page: pageA, errors } = await newPage(browser);
    openPages.push({ page: pageA, errors });
    let holding = false;
    const held: (() => void)[] = [];
    // Playwright routes only a page's own WebSockets: keep the socket out of its worker (the
    // page's fallback when the worker cannot load, test/e2e/socketWorker.test.ts).
    await pageA.route(/socketWorker-[\w-]+\.js/, (route) => route.abort());
    await pageA.routeWebSocket(/\/ws\?token=/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (holding && String(message).includes('"type":"event"')) held.push(() => ws.send(message));
        else ws.send(message);
      });
    });
    await pageA.goto(keel.url);
    await board(pageA).waitFor();
    const seenByA = await boardVersion(pageA);

    holding = true;
    const pageB = await openBoard();
    await addStep(pageB, 'Write a README');
    expect(await boardVersion(pageA)).toBe(seenByA); // A has not heard of it

    await row(pageA, RUN)
      .getByRole('button', { name: `Delete "${RUN}"` })
      .click();
    const alert = pageA.locator('.notice[role="alert"]');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('The plan changed while you were editing it');
    expect(await stepTexts(pageA)).toEqual([READ, WRITE, RUN, 'Write a README']);
    expect(await boardVersion(pageA)).toBe(seenByA + 1);
    await screenshot(pageA, 'conflict-shown');
    expect(await stepTexts(pageB)).toEqual([READ, WRITE, RUN, 'Write a README']);

    holding = false;
    held.splice(0).forEach((send) => send());
    // The next edit, made on the current plan, is stored and clears the message.
    await row(pageA, 'Write a README').getByRole('button', { name: 'Delete "Write a README"' }).click();
    await waitForNewVersion(pageA, seenByA + 1);
    expect(await stepTexts(pageA)).toEqual([READ, WRITE, RUN]);
    await expect.poll(() => pageA.getByRole('alert').count()).toBe(0);
  });

  test('keyboard only: add, reword, reorder and delete without the mouse', async () => {
    const page = await openBoard();
    const focused = () =>
      page.evaluate(() => ({
        label: document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
        visible: document.activeElement?.matches(':focus-visible'),
      }));

    // Tab from the top of the page to the add field.
    for (let i = 0; i < 40 && (await focused()).label !== 'New step'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ label: 'New step', visible: true });
    let version = await boardVersion(page);
    await page.keyboard.type('Check with the keyboard');
    await page.keyboard.press('Enter');
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, WRITE, RUN, 'Check with the keyboard']);
    expect((await focused()).label).toBe('New step');

    // Back to the new step's text: Delete, Move up (Move down is disabled), Waits for…, Status, text.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+Tab');
    expect(await focused()).toEqual({ label: 'Check with the keyboard', visible: true });

    // F2 rewords; Escape cancels, Enter saves.
    await page.keyboard.press('F2');
    await page.keyboard.type('nothing');
    await page.keyboard.press('Escape');
    expect(await stepTexts(page)).toContain('Check with the keyboard');
    expect((await focused()).label).toBe('Check with the keyboard');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Check the board by keyboard');
    await page.keyboard.press('Enter');
    version = await waitForNewVersion(page, version);
    // The stored version can render a moment before the editor gives its row back to the text.
    await page.locator('.item-editor').waitFor({ state: 'detached' });
    expect(await stepTexts(page)).toEqual([READ, WRITE, RUN, 'Check the board by keyboard']);
    // The text gets the focus back from an effect that runs a moment after the editor has gone; the
    // keys below need it there.
    await expect.poll(async () => (await focused()).label).toBe('Check the board by keyboard');

    // Alt+ArrowUp twice: focus follows the step.
    await page.keyboard.press('Alt+ArrowUp');
    version = await waitForNewVersion(page, version);
    await page.keyboard.press('Alt+ArrowUp');
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, 'Check the board by keyboard', WRITE, RUN]);
    expect(await focused()).toEqual({ label: 'Check the board by keyboard', visible: true });

    // The Move down button, by Tab and Enter.
    await page.keyboard.press('Tab'); // status
    await page.keyboard.press('Tab'); // waits for…
    await page.keyboard.press('Tab'); // move up
    await page.keyboard.press('Tab'); // move down
    expect((await focused()).label).toBe('Move "Check the board by keyboard" down');
    await page.keyboard.press('Enter');
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, WRITE, 'Check the board by keyboard', RUN]);
    expect((await focused()).label).toBe('Move "Check the board by keyboard" down');

    // Delete it; focus goes to the next step.
    await page.keyboard.press('Tab');
    expect((await focused()).label).toBe('Delete "Check the board by keyboard"');
    await page.keyboard.press('Enter');
    await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual([READ, WRITE, RUN]);
    expect((await focused()).label).toBe(RUN);
  });

  test('dark theme', async () => {
    const page = await openBoard({ colorScheme: 'dark' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(246, 246, 247)');
    await page.mouse.move(1000, 700);
    await screenshot(page, 'filled-board-dark');
  });

  test('Add waits for words; a step’s `code` shows as code, not as backticks, and rewords as written', async () => {
    const page = await openBoard();
    // Add says it has nothing to add until the step has words.
    const add = page.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'New step' }).fill('   ');
    expect(await add.isDisabled()).toBe(true);
    await addStep(page, 'Fix `total()` in `cart.py`');
    expect(await add.isDisabled()).toBe(true);
    const text = board(page).locator('.plan-list > li .item-text').last();
    expect(await text.innerText()).toBe('Fix total() in cart.py');
    expect(await text.locator('code').allInnerTexts()).toEqual(['total()', 'cart.py']);
    await page.mouse.move(1000, 700);
    await screenshot(page, 'step-inline-code');
    await text.click();
    expect(await page.getByRole('textbox', { name: /^Reword/ }).inputValue()).toBe('Fix `total()` in `cart.py`');
    await page.keyboard.press('Escape');
  });
});
