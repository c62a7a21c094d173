import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sessionsFolder } from '../../main/session/workspaceSession';
import { errorStatus, reply, text, toolUse } from '../support/scriptedAnthropic';
import { board, screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * The window as a newcomer meets it, in `keel web` with the scripted model: the keyboard path to
 * the message box with six sessions, "New session" that does not pile up empty ones, an answer of
 * 2,000 short lines, a table's headers, a denied command and its reason, and the status bar's
 * "Error" once the settings are fixed. The tests run in order on one keel web.
 */

const LINES = 2_000;
const LONG_ANSWER = Array.from({ length: LINES }, (_, i) => `line ${i + 1}: ok`).join('\n');
const TABLE = ['| Benchmark | Latency | Throughput |', '|---|---|---|', '| parse | 12 ms | 8,000/s |'].join('\n');
const REASON = 'Use node for this, not python';

const home = tempDir('newcomer-home');
const root = tempDir('newcomer-ws');
const folder = join(root.path, 'newcomer-project');
mkdirSync(folder);
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

/** Five finished sessions of the folder, as earlier days left them. */
function writeOldSessions(): void {
  const workspace = realpathSync(folder);
  const dir = sessionsFolder(home.path, workspace);
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= 5; i++) {
    const id = `2026010${i}T090000Z-old00${i}`;
    const at = `2026-01-0${i}T09:00:00.000Z`;
    const lines = [
      { type: 'session', format: 1, id, workspace, createdAt: at },
      { type: 'task', event: 'start', taskId: `t${i}`, text: `Old task number ${i}`, at },
      { type: 'message', message: { role: 'user', content: [{ type: 'text', text: `Old task number ${i}` }] }, at },
      { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, at },
      { type: 'task', event: 'end', taskId: `t${i}`, outcome: 'done', at },
    ];
    writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, { mode: 0o600 });
  }
}

const scripted = useScriptedWindow(() => {
  writeOldSessions();
  return {
    workspace: folder,
    keelHome: home.path,
    script: [
      reply(text(`Here is every line:\n${LONG_ANSWER}\n\n${TABLE}`)),
      reply(text('I will check the version.'), toolUse('bash', { command: 'python3 --version' })),
      reply(text('Understood, I will not run it.')),
      errorStatus(401, { message: 'invalid x-api-key' }),
    ],
    page: { viewport: { width: 1400, height: 900 } },
    ready: (page) => board(page).waitFor(),
  };
});

let page: Page;

const sidebar = (): Locator => page.getByRole('navigation', { name: 'Sessions and folders' });
const rows = (): Locator => sidebar().locator('.session-row');
/** Puts the keyboard's starting point at the top of the document, as on arriving at the page. */
const focusTop = () =>
  page.evaluate(() => {
    const top = document.documentElement;
    top.tabIndex = -1;
    top.focus();
    top.removeAttribute('tabindex');
  });
const active = () =>
  page.evaluate(() => ({
    id: document.activeElement?.id ?? '',
    className: document.activeElement?.className ?? '',
    text: document.activeElement?.textContent ?? '',
  }));

beforeAll(() => {
  page = scripted.page;
});

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the window for a newcomer (keel web)', () => {
  test('keyboard: the message box has the focus on load, a skip link leads to it, and the session list is one Tab stop', async () => {
    await expect.poll(() => rows().count()).toBe(5);
    await expect.poll(async () => (await active()).id).toBe('composer-input');

    // From the top of the page, the first Tab shows the skip link; Enter goes to the message box.
    await focusTop();
    await page.keyboard.press('Tab');
    expect((await active()).className).toContain('skip-link');
    const link = (await page.locator('.skip-link').boundingBox())!;
    expect(link.y).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'newcomer-skip-link');
    await page.keyboard.press('Enter');
    expect((await active()).id).toBe('composer-input');

    // Tabbing from the top: the five sessions take two stops (the open one and its delete button).
    await focusTop();
    let stops = 0;
    let inList = 0;
    for (; stops < 60; stops++) {
      await page.keyboard.press('Tab');
      const now = await page.evaluate(() => ({ id: document.activeElement?.id ?? '', inList: document.activeElement?.closest('.session-list') !== null }));
      if (now.inList) inList++;
      if (now.id === 'composer-input') break;
    }
    expect(inList).toBe(2);
    expect(stops).toBeLessThan(20);

    // ↓ moves between sessions; Delete asks to delete the focused one.
    const current = rows().locator('.session-open[aria-current="true"]');
    await current.focus();
    await page.keyboard.press('End');
    expect((await active()).text).toContain('Old task number 1');
    await page.keyboard.press('ArrowUp');
    expect((await active()).text).toContain('Old task number 2');
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete this session?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Old task number 2');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await rows().count()).toBe(5);
  });

  test('"New session" reuses an untouched session instead of piling up another', async () => {
    const newSession = sidebar().getByRole('button', { name: 'New session', exact: true });
    await newSession.click();
    await expect.poll(() => rows().count()).toBe(6);
    const fresh = await page.locator('.workspace-session').innerText();
    expect(fresh).toContain('New session');
    await newSession.click();
    await newSession.click();
    // Still six: the empty one is reused.
    await page.waitForFunction(() => document.querySelectorAll('.session-row').length >= 6);
    expect(await rows().count()).toBe(6);
    // From an old session, "New session" goes back to the empty one.
    await rows().filter({ hasText: 'Old task number 3' }).locator('.session-open').click();
    await expect.poll(() => page.locator('.workspace-session').innerText()).toContain('Old task number 3');
    await newSession.click();
    await expect.poll(() => page.locator('.workspace-session').innerText()).toContain('New session');
    expect(await rows().count()).toBe(6);
    await screenshot(page, 'newcomer-sessions');
  });

  test('a 2,000-line answer keeps its line breaks; a table’s headers stay whole', async () => {
    const box = page.locator('#composer-input');
    await box.fill('List every line');
    await box.press('Enter');
    const answer = page.locator('.chat-assistant').filter({ hasText: 'Here is every line:' });
    await answer.locator('table').waitFor({ timeout: 20_000 });
    await page.locator('.chat-panel[data-agent-running="false"]').waitFor({ timeout: 20_000 });
    // Every single newline is a line break: 2,000 lines render as 2,000 lines, not one paragraph.
    expect(await answer.locator('br').count()).toBeGreaterThanOrEqual(LINES);
    const lines = (await answer.locator('p').first().innerText()).split('\n');
    expect(lines.length).toBeGreaterThan(LINES);
    expect(lines[1]).toBe('line 1: ok');
    // "Latency" is one word on one line, not "Latenc y".
    for (const header of await answer.locator('th').all()) {
      const height = (await header.boundingBox())!.height;
      const lineHeight = await header.evaluate((cell) => parseFloat(getComputedStyle(cell).lineHeight));
      expect(height).toBeLessThan(2 * lineHeight);
    }
    await answer.locator('table').scrollIntoViewIfNeeded();
    await screenshot(page, 'newcomer-long-answer');
  }, 60_000);

  test('approvals: the reason field is whole, the session rule says what it allows, a denied card shows the reason', async () => {
    const box = page.locator('#composer-input');
    await box.fill('Which python is there?');
    await box.press('Enter');
    const card = page.locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByRole('button', { name: /Allow for this session/ }).innerText()).toContain('every python3 command from now on');
    const reason = card.getByRole('textbox', { name: 'Reason for denying (optional, sent to the agent)' });
    const cut = await reason.evaluate((input: HTMLInputElement) => input.scrollWidth > input.clientWidth);
    expect(cut).toBe(false);
    await screenshot(page, 'newcomer-approval');
    await reason.fill(REASON);
    await card.getByRole('button', { name: 'Deny' }).click();
    const tool = page.locator('.tool-card[data-tool="bash"]').last();
    await tool.locator('.chip-danger').filter({ hasText: 'Denied' }).waitFor({ timeout: 15_000 });
    await page.locator('.chat-panel[data-agent-running="false"]').waitFor({ timeout: 15_000 });
    if ((await tool.locator('.tool-body').count()) === 0) await tool.locator('.tool-head').click();
    expect(await tool.locator('.denied-note').innerText()).toContain('Not run: you denied this command.');
    expect(await tool.locator('.denied-reason').innerText()).toContain(REASON);
    await tool.scrollIntoViewIfNeeded();
    await screenshot(page, 'newcomer-denied');
  });

  test('the status bar’s "Error" gives way once the connection settings are saved', async () => {
    const box = page.locator('#composer-input');
    await box.fill('One more thing');
    await box.press('Enter');
    const state = page.getByRole('contentinfo').locator('.status-state');
    await expect.poll(() => state.innerText(), { timeout: 15_000 }).toContain('Error');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Model', { exact: true }).fill('claude-haiku-4-5');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => state.innerText()).toContain('Idle');
  });
});
