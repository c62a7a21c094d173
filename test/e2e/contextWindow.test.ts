import { writeFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import { SUMMARY_SYSTEM_MARK } from '../../main/agent/compaction/summaryRequest';
import { reply, systemText, text, toolUse, type ScriptedAnthropic, type Step } from '../support/scriptedAnthropic';

/*
 * The context window in `keel web`, in a real Chromium: the meter in the status bar moves as a
 * task reads files, Keel makes room by itself near the threshold (a row in the chat), "Compact
 * now" summarises the older conversation, and the compaction row opens to the summary. The
 * instruction file in the workspace is shown as active. A reload keeps the rows.
 */

const WINDOW = 20_000;
const SUMMARY = 'Goal: read notes.txt in parts.\nFiles: notes.txt (600 lines), read up to line 600.\nNext: report what it says.';

const home = tempDir('ctx-home');
const root = tempDir('ctx-ws');
const folder = root.path;
writeFileSync(join(folder, 'AGENTS.md'), '# House rules\nKeep answers short.\n');
writeFileSync(
  join(folder, 'notes.txt'),
  `${Array.from({ length: 600 }, (_, i) => `note ${i + 1}: the build is green and the tests are fast enough`).join('\n')}\n`,
);

const reads = (count: number): Step[] =>
  Array.from({ length: count }, (_, i) => reply(toolUse('read_file', { path: 'notes.txt', offset: (i % 6) * 100 + 1, limit: 100 })));

/*
 * The second task reads on until it has made room and then is near the threshold again, and
 * only then answers. Steps decide from the request they answer, not from a fixed count: where
 * the compaction falls depends on how big the system prompt and tools are (web_fetch added 266
 * tokens, which moved it one read earlier and put the last request right after a second one).
 */
const THRESHOLD = 0.8 * WINDOW;
const NEAR = 0.85 * THRESHOLD;
const readOnUntilNear = (): Step[] => {
  let previous = 0;
  let madeRoom = false;
  return Array.from({ length: 16 }, (_, i) => (request) => {
    if (previous > 0 && request.tokens < previous) madeRoom = true;
    previous = request.tokens;
    return madeRoom && request.tokens > NEAR
      ? reply(text('Read it all.'))
      : reply(toolUse('read_file', { path: 'notes.txt', offset: (i % 6) * 100 + 1, limit: 100 }));
  });
};

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  model: {
    contextLimit: WINDOW,
    sideAnswer: (request) => (systemText(request).startsWith(SUMMARY_SYSTEM_MARK) ? reply(SUMMARY) : undefined),
  },
  script: [...reads(3), reply(text('Read three parts.')), ...readOnUntilNear()],
  env: { KEEL_CONTEXT_WINDOW: String(WINDOW) },
});

let server: ScriptedAnthropic;
let page: Page;

const composer = (): Locator => page.getByRole('textbox', { name: 'Message to the agent' });
const meter = (): Locator => page.getByTestId('context-meter');
const used = async (): Promise<number> => Number(await meter().getByRole('meter').getAttribute('aria-valuenow'));
const fillColor = (): Promise<string> =>
  meter()
    .locator('.context-fill')
    .evaluate((el) => getComputedStyle(el).backgroundColor);
let okFill = '';
const rows = (): Locator => page.locator('section.chat-panel').getByTestId('compaction-row');

beforeAll(() => {
  ({ server, page } = scripted);
});

afterAll(() => {
  home.remove();
  root.remove();
});

async function runTask(message: string, answer: string): Promise<void> {
  await composer().fill(message);
  await composer().press('Enter');
  await page.locator('section.chat-panel').getByText(answer).waitFor({ timeout: 30_000 });
  await page.locator('.status-state[data-state="done"]').waitFor();
}

describe('the context window (keel web)', () => {
  test('the meter shows used / window and moves as the task reads; the instruction file is shown', async () => {
    await meter().waitFor();
    await expect.poll(() => meter().innerText()).toContain('/ 20K');
    const before = await used();
    expect(before).toBeGreaterThan(0);
    const files = page.getByTestId('instruction-files');
    await expect.poll(() => files.innerText()).toBe('AGENTS.md');
    expect(await files.getAttribute('title')).toContain(join(folder, 'AGENTS.md'));
    // A conversation not begun has nothing to compact: the button says so instead of inviting a click.
    const compactNow = meter().getByRole('button', { name: 'Compact now' });
    expect(await compactNow.isDisabled()).toBe(true);

    await runTask('read notes.txt, three parts', 'Read three parts.');
    await expect.poll(used).toBeGreaterThan(before + 3_000);
    await expect.poll(() => compactNow.isDisabled()).toBe(false);
    expect(await meter().getAttribute('data-level')).toBe('ok');
    okFill = await fillColor();
    await screenshot(page, 'context-meter');
  });

  test('near the threshold Keel makes room by itself, and says so in the chat', async () => {
    await runTask('now read all of it', 'Read it all.');
    await rows().first().waitFor();
    expect(await rows().first().innerText()).toMatch(/Keel made room: cleared \d+ old tool results/);
    // It opens to what was cleared and how to get it back.
    await rows().first().getByRole('button').click();
    await rows()
      .first()
      .getByText(/\[read_file notes\.txt, lines 1–100: cleared to make room; read it again if you need it\]/)
      .waitFor();
    await screenshot(page, 'context-cleared-row');
    expect(server.requests.every((r) => r.rejected === undefined)).toBe(true);
    // Room was made before the threshold, never after the service refused: no request passed it,
    // and the one after making room was well under it (clearing aims at 60% of the threshold).
    const task = server.requests.filter((r) => !r.side).slice(4);
    expect(Math.max(...task.map((r) => r.tokens))).toBeLessThan(THRESHOLD);
    const after = task.findIndex((r, i) => i > 0 && r.tokens < task[i - 1]!.tokens);
    expect(task[after]!.tokens).toBeLessThan(0.75 * THRESHOLD);
    // Having read on after making room, the meter is amber: near the threshold again.
    const value = await used();
    expect(value).toBeGreaterThan(NEAR);
    expect(value).toBeLessThan(THRESHOLD);
    expect(await meter().getAttribute('data-level')).toBe('near');
    expect(await fillColor()).not.toBe(okFill);
    await screenshot(page, 'context-made-room');
  });

  test('"Compact now" summarises; the row opens to the summary; the meter drops; a reload keeps it', async () => {
    const before = await used();
    const count = await rows().count();
    await meter().getByRole('button', { name: 'Compact now' }).click();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(count + 1);
    const row = rows().last();
    expect(await row.innerText()).toMatch(/Keel made room: summarised \d+ earlier messages/);
    await expect.poll(used).toBeLessThan(before);

    await row.getByRole('button').click();
    await row.getByText('Next: report what it says.').waitFor();
    await screenshot(page, 'context-compaction-row');
    // The request asked for a summary with the conversation as text, and it fit the window.
    const side = server.requests.filter((r) => r.side);
    expect(side.length).toBe(1);
    expect(side[0]!.tokens).toBeLessThan(WINDOW);

    await page.reload();
    await composer().waitFor();
    await expect.poll(() => rows().count()).toBe(count + 1);
    await rows().last().getByRole('button').click();
    await rows().last().getByText('Next: report what it says.').waitFor();
  });

  test('the Settings dialog shows the window KEEL_CONTEXT_WINDOW sets, says so, and does not let it be edited there', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByLabel('Context window', { exact: true });
    expect(await field.inputValue()).toBe(String(WINDOW));
    expect(await field.getAttribute('readonly')).not.toBeNull();
    const note = dialog.locator(`#${await field.getAttribute('aria-describedby')}`);
    expect(await note.innerText()).toBe('Set by KEEL_CONTEXT_WINDOW in the environment; change it there.');
    // The threshold has no environment variable: still editable.
    expect(await dialog.getByLabel('Make room at').getAttribute('readonly')).toBeNull();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
