import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { addStep, board, screenshot, stepTexts } from './support/board';
import { type PageOptions } from './support/chromium';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The workbench window's shell in `keel web`, in a real Chromium: folders and sessions, resizable
 * panes, settings (with a scripted Anthropic server behind "Test connection"), themes, languages,
 * the status bar, and an accessibility scan of each main state. The tests run in order and share
 * one keel web and one KEEL_HOME; each builds on what the one before left.
 */

const RIGHT_KEY = 'sk-ant-right-key-9c41f7e2b8d6a0';
const WRONG_KEY = 'sk-ant-wrong-key-3e5d7a9b1c2f48';

const home = tempDir('wb-home');
const root = tempDir('wb-ws');
const folder = join(root.path, 'demo-project');
for (const name of ['demo-project', 'demo-two', 'other']) mkdirSync(join(root.path, name));

// keel web starts with no folder and no model: the person sets the model up in Settings.
const scripted = useScriptedWindow({ keelHome: home.path, workspace: null, apiKey: RIGHT_KEY, keelKey: null, connectModel: false, page: false });

let keel: KeelWeb;
let model: ScriptedAnthropic;

/** A page of the test's own (closed after it); none may hit a script error or a CSP violation. */
async function open(options: PageOptions = {}): Promise<Page> {
  const { page } = await scripted.newPage(options);
  await page.goto(keel.url);
  return page;
}

/** A page with the folder open and its (stored) plan shown. */
async function openWorkbench(options: PageOptions = {}): Promise<Page> {
  const page = await open(options);
  await board(page).waitFor();
  return page;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; returns the serious and critical violations, described. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  // page.evaluate runs over the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

async function openSettings(page: Page, buttonName = 'Settings'): Promise<Locator> {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

async function settingsNow() {
  const socket = await connectKeelSocket(keel.url);
  const view = await socket.request('settings.get', {});
  socket.close();
  if (!view.ok) throw new Error(view.error.message);
  return view.value;
}

/** The open session's approval mode, as main holds it (the status bar sets the session's, not the default). */
async function sessionApprovalMode() {
  const socket = await connectKeelSocket(keel.url);
  const status = await socket.request('agent.status', {});
  socket.close();
  if (!status.ok) throw new Error(status.error.message);
  return status.value.approvalMode;
}

const statusBar = (page: Page): Locator => page.getByRole('contentinfo');
const separator = (page: Page, name: string): Locator => page.getByRole('separator', { name });
const valueOf = async (locator: Locator): Promise<number> => Number(await locator.getAttribute('aria-valuenow'));

beforeAll(() => {
  ({ keel, server: model } = scripted);
});

afterEach(() => scripted.closePages());

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the workbench window (keel web)', () => {
  test('with no folder open: a welcome, and a folder opened by typing its path with completion', async () => {
    const page = await open();
    await page.getByRole('heading', { name: 'Open a folder to start' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-welcome');

    const field = page.getByRole('combobox', { name: 'Folder path' });
    await field.fill(join(root.path, 'de'));
    const listbox = page.getByRole('listbox', { name: 'Matching folders' });
    await listbox.waitFor();
    expect(await field.getAttribute('aria-expanded')).toBe('true');
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual([`${join(root.path, 'demo-project')}/`, `${join(root.path, 'demo-two')}/`]);

    // ↓ ↓ ↑ highlights the first again; the field names it as its active descendant.
    await field.press('ArrowDown');
    await field.press('ArrowDown');
    await field.press('ArrowUp');
    const first = listbox.getByRole('option').first();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await field.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    await screenshot(page, 'workbench-folder-completion');

    // Enter takes it (the list closes: demo-project has no folders), a second Enter opens it.
    await field.press('Enter');
    await expect.poll(() => field.inputValue()).toBe(`${folder}/`);
    await expect.poll(() => field.getAttribute('aria-expanded')).toBe('false');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();
    await board(page).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // With a folder open, "Open Folder…" asks in a dialog, starting from the folder's parent.
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open Folder' });
    await dialog.waitFor();
    const again = dialog.getByRole('combobox', { name: 'Folder path' });
    expect(await again.inputValue()).toBe(`${root.path}/`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await expect
      .poll(async () => {
        await again.press('ArrowDown');
        return again.getAttribute('aria-expanded');
      })
      .toBe('true');
    expect(await dialog.getByRole('option').allInnerTexts()).toEqual(['demo-project', 'demo-two', 'other'].map((name) => `${join(root.path, name)}/`));
    await again.press('ArrowDown');
    await screenshot(page, 'workbench-open-folder-dialog');
    await again.press('Tab');
    expect(await again.inputValue()).toBe(`${join(root.path, 'demo-two')}/`);
    await again.press('Enter');
    await page.getByRole('heading', { name: 'demo-two' }).waitFor();
    // The folder's heading can render a frame before the dialog has finished closing.
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });

    // Tab accepts a shown suggestion even when none is highlighted (the first, as a shell would).
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    const third = dialog.getByRole('combobox', { name: 'Folder path' });
    await third.fill(join(root.path, 'ot'));
    await dialog.getByRole('listbox', { name: 'Matching folders' }).waitFor();
    expect(await third.getAttribute('aria-activedescendant')).toBeNull();
    await third.press('Tab');
    expect(await third.inputValue()).toBe(`${join(root.path, 'other')}/`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });

    // Back by the recent folders of the sidebar.
    const recent = page.getByRole('navigation', { name: 'Sessions and folders' }).getByRole('button', { name: /^demo-project/ });
    await recent.click();
    await page.getByRole('heading', { name: 'demo-project' }).waitFor();
  }, 60_000);

  test('the empty workbench: plan, chat, collapsed terminal, and a status bar with model and state', async () => {
    const page = await openWorkbench();
    const bar = statusBar(page);
    await expect.poll(() => bar.innerText()).toContain('claude-sonnet-5-5');
    expect(await bar.innerText()).toContain('Idle');
    expect(await bar.innerText()).toMatch(/0 in · 0 out/);
    expect(await page.getByRole('button', { name: 'Terminal', exact: true }).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Sessions and folders' }).innerText()).toContain('New session');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-empty');

    // The approval mode, changed from the status bar: by pointer, then by keyboard.
    const mode = bar.getByRole('button', { name: /^Approval mode: Auto-approve edits/ });
    await mode.click();
    const menu = page.getByRole('menu', { name: 'Approval mode' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitemradio', { checked: true }).innerText()).toContain('Auto-approve edits');
    await screenshot(page, 'workbench-approval-menu');
    await menu.getByRole('menuitemradio', { name: /Full auto/ }).hover();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/Full auto/);
    await menu.getByRole('menuitemradio', { name: /Ask first/ }).click();
    await bar.getByRole('button', { name: /^Approval mode: Ask first/ }).waitFor();
    expect(await sessionApprovalMode()).toBe('ask');
    // The choice carries to the next session: it is the default for new sessions now.
    expect((await settingsNow()).approvalMode).toBe('ask');

    await bar.getByRole('button', { name: /^Approval mode/ }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-checked'))).toBe('true');
    // Each key waits for the focus it moves, so a loaded machine cannot let Enter outrun an arrow.
    const focusedItem = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedItem).toMatch(/Auto-approve edits/);
    // The pointer still rests where it clicked "Ask first", now under the reopened menu: Chromium's
    // still-pointer mouse move must not take the highlight back from the keys.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await focusedItem()).toMatch(/Auto-approve edits/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedItem).toMatch(/Full auto/);
    await page.keyboard.press('Enter');
    await bar.getByRole('button', { name: /^Approval mode: Full auto/ }).waitFor();
    expect(await menu.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Approval mode: Full auto/);
    expect(await sessionApprovalMode()).toBe('full_auto');
  }, 60_000);

  test('panes resize by keyboard and by pointer, and the sizes come back after a reload', async () => {
    const page = await openWorkbench();
    const plan = separator(page, 'Resize the plan and the chat');
    const sidebar = separator(page, 'Resize the sessions sidebar');
    expect(await plan.getAttribute('aria-orientation')).toBe('vertical');
    expect(await plan.getAttribute('aria-controls')).toBe('plan-pane');

    const planBefore = await valueOf(plan);
    await plan.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowLeft');
    const planAfter = planBefore + 3 * 16 - 64;
    expect(await valueOf(plan)).toBe(planAfter);
    expect(Math.round((await page.locator('#plan-pane').boundingBox())!.width)).toBe(planAfter);
    await page.keyboard.press('End');
    const planMax = Number(await plan.getAttribute('aria-valuemax'));
    expect(await valueOf(plan)).toBe(planMax);
    await page.keyboard.press('Home');
    expect(await valueOf(plan)).toBe(Number(await plan.getAttribute('aria-valuemin')));
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    const planKept = await valueOf(plan);

    // The sidebar by pointer: drag its separator 40px to the right.
    const sidebarBefore = await valueOf(sidebar);
    const box = (await sidebar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    expect(await valueOf(sidebar)).toBe(sidebarBefore + 40);

    // The terminal panel opens and its height is set by the separator above it (↑ grows it).
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    const terminal = separator(page, 'Resize the terminal panel');
    expect(await terminal.getAttribute('aria-orientation')).toBe('horizontal');
    const terminalBefore = await valueOf(terminal);
    await terminal.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await valueOf(terminal)).toBe(terminalBefore + 32);
    expect(Math.round((await page.locator('#terminal-panel').boundingBox())!.height)).toBe(terminalBefore + 32);
    await screenshot(page, 'workbench-resized');

    await page.reload();
    await board(page).waitFor();
    expect(await valueOf(separator(page, 'Resize the plan and the chat'))).toBe(planKept);
    expect(await valueOf(separator(page, 'Resize the sessions sidebar'))).toBe(sidebarBefore + 40);
    expect(await valueOf(separator(page, 'Resize the terminal panel'))).toBe(terminalBefore + 32);
    expect(await page.getByRole('button', { name: 'Terminal', exact: true }).getAttribute('aria-expanded')).toBe('true');

    // Collapsing the terminal and hiding the sidebar are remembered too.
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    await page.getByRole('button', { name: 'Hide sessions' }).click();
    expect(await page.getByRole('navigation', { name: 'Sessions and folders' }).count()).toBe(0);
    await page.reload();
    await board(page).waitFor();
    expect(await page.getByRole('separator', { name: 'Resize the terminal panel' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show sessions' }).click();
    await page.getByRole('navigation', { name: 'Sessions and folders' }).waitFor();
  }, 60_000);

  test('settings: model and max tokens saved, a bad URL refused inline, Test connection, and the key never in the page', async () => {
    const page = await openWorkbench();
    // No key anywhere: the new session says it up front, with the way to the settings, before any task fails on it.
    const noKey = page.getByRole('region', { name: 'Connect a model' });
    await noKey.waitFor();
    await screenshot(page, 'workbench-no-key');
    const received: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => received.push(String(payload))));
    const dialog = await openSettings(page);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await dialog.innerText()).toContain('No key is set');

    // Model and max tokens.
    await dialog.getByLabel('Model', { exact: true }).fill('claude-haiku-4-5');
    await dialog.getByLabel('Max tokens per answer').fill('8000');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await settingsNow()).toMatchObject({ model: 'claude-haiku-4-5', maxTokens: 8000 });
    await expect.poll(() => statusBar(page).innerText()).toContain('claude-haiku-4-5');

    // A base URL that is not a URL: refused by the contract, shown under the field, nothing stored.
    const baseURL = dialog.getByLabel('Base URL');
    await baseURL.fill('not a url');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'Enter a full URL' });
    await refusal.waitFor();
    expect(await baseURL.getAttribute('aria-invalid')).toBe('true');
    expect(await baseURL.getAttribute('aria-describedby')).toContain(await refusal.getAttribute('id'));
    // The refused field, at the top of a dialog saved from its bottom, takes the focus and is in view.
    await expect.poll(() => baseURL.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await settingsNow()).baseURL).toBe('');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-settings-refused');

    // The scripted server with a wrong key: "Test connection" tests what is typed, says to check
    // the key, and saves nothing.
    await baseURL.fill(model.baseURL);
    await dialog.getByLabel('API key').fill(WRONG_KEY);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const failed = dialog.getByRole('alert').filter({ hasText: 'Could not connect.' });
    await failed.waitFor();
    expect(await failed.innerText()).toContain('Check the API key');
    expect(await failed.innerText()).toContain('not saved');
    expect(await settingsNow()).toMatchObject({ baseURL: '', apiKey: { set: false } });

    // The right key: connected, the model's answer quoted; still unsaved until Save.
    model.push(reply(text('OK')));
    await dialog.getByLabel('API key').fill(RIGHT_KEY);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const connected = dialog.getByRole('status').filter({ hasText: 'Connected.' });
    await connected.waitFor();
    expect(await connected.innerText()).toBe('Connected. claude-haiku-4-5 answered "OK". These values are not saved yet: press Save to keep them.');
    expect(await settingsNow()).toMatchObject({ baseURL: '', apiKey: { set: false } });
    await screenshot(page, 'workbench-settings-tested-unsaved');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await settingsNow()).toMatchObject({ baseURL: model.baseURL, apiKey: { set: true } });
    expect(await dialog.innerText()).toContain('kept in Keel’s settings file');
    // The wrong key was refused by the server; the right one reached the script.
    expect(model.requests.map((request) => request.rejected !== undefined)).toEqual([true, false]);
    expect(await dialog.getByLabel('API key').inputValue()).toBe('');
    const masked = await dialog.locator('.key-masked').innerText();
    expect(masked.length).toBeGreaterThan(3);
    expect(RIGHT_KEY).not.toContain(masked);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-settings');

    // Focus stays inside the dialog; Escape closes it and focus goes back to the Settings button.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Settings');
    expect(await noKey.count()).toBe(0);

    // The key is nowhere in the page nor in anything main sent to it.
    for (const key of [RIGHT_KEY, WRONG_KEY]) {
      expect(await page.content()).not.toContain(key);
      expect(received.filter((frame) => frame.includes(key))).toEqual([]);
    }
    await page.reload();
    await board(page).waitFor();
    const again = await openSettings(page);
    expect(await again.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-haiku-4-5');
    expect(await again.getByLabel('Max tokens per answer').inputValue()).toBe('8000');
    expect(await again.getByLabel('Base URL').inputValue()).toBe(model.baseURL);
    expect(await page.content()).not.toContain(RIGHT_KEY);
    expect(model.errors).toEqual([]);
  }, 60_000);

  test('settings: the context window and where Keel makes room: defaults shown, bad values refused inline, saved, shown again, and the meter follows', async () => {
    const page = await openWorkbench();
    const meter = page.getByTestId('context-meter');
    await expect.poll(() => meter.innerText()).toContain('/ 200K');
    let dialog = await openSettings(page);
    const contextWindow = () => dialog.getByLabel('Context window', { exact: true });
    const makeRoomAt = () => dialog.getByLabel('Make room at');
    // Empty means the default, and says which.
    expect(await contextWindow().inputValue()).toBe('');
    expect(await contextWindow().getAttribute('placeholder')).toBe('200,000');
    expect(await makeRoomAt().inputValue()).toBe('');
    expect(await makeRoomAt().getAttribute('placeholder')).toBe('80');
    expect(await dialog.innerText()).toContain('Empty: 200,000 tokens');

    // Reachable from the keyboard.
    await dialog.getByLabel('Completion gate').focus();
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await contextWindow().evaluate((input) => input === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.type('lots');
    await page.keyboard.press('Tab');
    await page.keyboard.type('120');

    // Not a number, and a percentage past 95: each refused under its field, saying what is accepted; nothing saved.
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    const windowRefusal = dialog.getByRole('alert').filter({ hasText: 'Enter a whole number of tokens from 1,000 to 100,000,000' });
    const shareRefusal = dialog.getByRole('alert').filter({ hasText: 'Enter a percentage from 10 to 95' });
    await windowRefusal.waitFor();
    await shareRefusal.waitFor();
    expect(await contextWindow().getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => contextWindow().evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await contextWindow().getAttribute('aria-describedby')).toContain(await windowRefusal.getAttribute('id'));
    expect(await makeRoomAt().getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText('Not saved: see the fields marked above.').count()).toBe(1);
    expect(await settingsNow()).toMatchObject({ contextWindow: null, compactAt: null });
    await shareRefusal.scrollIntoViewIfNeeded();
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-settings-context-refused');

    // A window written as people write it, and a percentage: saved as tokens and a share.
    await contextWindow().fill('50,000');
    await makeRoomAt().fill('60');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await settingsNow()).toMatchObject({ contextWindow: 50_000, compactAt: 0.6 });
    await dialog.getByText('Empty: 80% of the window.').scrollIntoViewIfNeeded();
    await screenshot(page, 'workbench-settings-context');
    // The meter shows the new window at once, its mark at 60%.
    await expect.poll(() => meter.innerText()).toContain('/ 50K');
    expect(await meter.getAttribute('title')).toContain('30,000');

    // Shown again when the dialog is opened again, after a reload.
    await page.keyboard.press('Escape');
    await page.reload();
    await board(page).waitFor();
    dialog = await openSettings(page);
    expect(await contextWindow().inputValue()).toBe('50000');
    expect(await makeRoomAt().inputValue()).toBe('60');

    // Emptied: back to the defaults.
    await contextWindow().fill('');
    await makeRoomAt().fill('');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await settingsNow()).toMatchObject({ contextWindow: null, compactAt: null });
    await expect.poll(() => meter.innerText()).toContain('/ 200K');
  }, 60_000);

  test('sessions: a new one is listed, switching reloads the plan, and deleting asks first', async () => {
    const page = await openWorkbench();
    const sidebar = page.getByRole('navigation', { name: 'Sessions and folders' });
    const rows = sidebar.locator('.session-row');
    await expect.poll(() => rows.count()).toBe(1);
    await addStep(page, 'A step of the first session');

    await sidebar.getByRole('button', { name: 'New session', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => stepTexts(page)).toEqual([]);
    expect(await sidebar.locator('.session-row.is-current').count()).toBe(1);
    expect(await rows.first().getByRole('button').first().getAttribute('aria-current')).toBe('true');
    expect(await page.locator('.workspace-session').innerText()).toContain('New session');

    // Back to the first session: its plan comes back.
    await rows.nth(1).getByRole('button').first().click();
    await expect.poll(() => stepTexts(page)).toEqual(['A step of the first session']);
    await expect.poll(() => rows.nth(1).getByRole('button').first().getAttribute('aria-current')).toBe('true');

    // Delete the other (newer) one: a confirmation first; Cancel keeps it.
    const other = sidebar.locator('.session-row:not(.is-current)');
    await other.hover();
    await other.getByRole('button', { name: /^Delete session/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this session?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('trash');
    expect(await confirm.innerText()).toContain(join(home.path, 'trash'));
    expect(await confirm.innerText()).toContain('Pictures that only this session shows are erased.');
    expect(await confirm.innerText()).toContain('the agent’s changes in this session can no longer be undone');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await screenshot(page, 'workbench-delete-session');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await rows.count()).toBe(2);

    await other.getByRole('button', { name: /^Delete session/ }).click();
    await confirm.getByRole('button', { name: 'Delete session', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(readdirSync(join(home.path, 'trash'))).toHaveLength(1);
    expect(await stepTexts(page)).toEqual(['A step of the first session']);
  }, 60_000);

  test('switch to 中文 and see the window in Chinese, then back to English', async () => {
    const page = await openWorkbench();
    let dialog = await openSettings(page);
    await dialog.getByRole('radio', { name: '简体中文' }).check();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN');
    await page.getByRole('dialog', { name: '设置' }).waitFor();
    expect(await page.getByRole('dialog').innerText()).toContain('模型连接');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: '打开文件夹…' }).waitFor();
    expect(await board(page).innerText()).toContain('计划');
    expect(await board(page).locator('.board-source').innerText()).toMatch(/^最近修改：你/);
    expect(await page.getByRole('textbox', { name: '新步骤' }).count()).toBe(1);
    expect(await statusBar(page).innerText()).toContain('空闲');
    expect(await page.getByRole('navigation', { name: '会话和文件夹' }).innerText()).toContain('新建会话');
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-zh-CN');

    // It is a setting: a reload keeps it.
    await page.reload();
    await board(page).waitFor();
    await page.getByRole('button', { name: '打开文件夹…' }).waitFor();
    dialog = await openSettings(page, '设置');
    await screenshot(page, 'workbench-zh-CN-settings');
    await dialog.getByRole('radio', { name: 'English' }).check();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open Folder…' }).waitFor();
    expect((await settingsNow()).language).toBe('en');
  }, 60_000);

  test('dark theme: follows the OS, and the theme setting switches it', async () => {
    const page = await openWorkbench({ colorScheme: 'light' });
    const html = page.locator('html');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await html.getAttribute('data-theme')).toBe('light');
    const light = await background();

    const dialog = await openSettings(page);
    await dialog.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => html.getAttribute('data-theme')).toBe('dark');
    expect(await background()).not.toBe(light);
    await screenshot(page, 'workbench-dark-settings');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.mouse.move(900, 400);
    expect(await accessibilityProblems(page)).toEqual([]);
    await screenshot(page, 'workbench-dark');

    // Back to the OS's choice; a window whose OS is dark is dark.
    await (await openSettings(page)).getByRole('radio', { name: 'System' }).first().check();
    await expect.poll(() => html.getAttribute('data-theme')).toBe('light');
    await page.keyboard.press('Escape');
    const darkOs = await openWorkbench({ colorScheme: 'dark' });
    expect(await darkOs.locator('html').getAttribute('data-theme')).toBe('dark');
  }, 60_000);
});
