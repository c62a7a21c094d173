import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * A window that reloads, or a second tab that opens, while a round's calls run or after they
 * ended shows the cards the chat had: the ended call's result and its "Allowed once" badge, the
 * running call's live output and spinner; and the cards finish without a second copy.
 */

const home = tempDir('cards-home');
const root = tempDir('cards-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);
writeFileSync(join(folder, 'notes.txt'), 'remember the milk\n');

// The second command runs until the test lets it go (it makes the file `go`).
const SLOW = 'echo started; while [ ! -f go ]; do sleep 0.1; done; echo finished';

let page: Page;

afterAll(() => {
  home.remove();
  root.remove();
});

const window = useScriptedWindow(
  {
    workspace: folder,
    keelHome: home.path,
    settings: { approvalMode: 'ask' },
    script: [
      reply(text('Two commands.'), toolUse('bash', { command: 'cat notes.txt' }, 'toolu_cat'), toolUse('bash', { command: SLOW }, 'toolu_slow')),
      reply(text('All done.')),
    ],
  },
  60_000,
);

beforeAll(() => {
  page = window.page;
});

const card = (on: Page, id: string): Locator => on.locator(`section.chat-panel .tool-card[data-tool-id="${id}"]`);
const cards = (on: Page): Locator => on.locator('section.chat-panel .tool-card');

/** What a card says at a glance: its phase, its badge or spinner label, and its output when open. */
async function cardState(on: Page, id: string): Promise<{ phase: string; head: string; output: string | null }> {
  const one = card(on, id);
  const phase = ((await one.getAttribute('class')) ?? '').split(' ').find((name) => name.startsWith('phase-')) ?? '';
  const head = (await one.locator('.tool-meta').innerText()).replace(/\s+/g, ' ').trim();
  const output = one.locator('.command-output');
  return { phase, head, output: (await output.count()) > 0 ? (await output.innerText()).trim() : null };
}

async function approve(): Promise<void> {
  const approval = page.locator('section.chat-panel .approval-card').first();
  await approval.waitFor();
  await approval.getByRole('button', { name: 'Allow once' }).click();
}

describe('tool cards after a reload', () => {
  test('mid-call and after the call, a reload and a second tab show the same cards', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Read my notes, then wait');
    await composer.press('Enter');
    await approve();
    await expect.poll(() => cardState(page, 'toolu_cat').then((state) => state.phase)).toBe('phase-done');
    await approve();
    await expect.poll(() => cardState(page, 'toolu_slow').then((state) => state.output)).toBe('started');
    const before = { cat: await cardState(page, 'toolu_cat'), slow: await cardState(page, 'toolu_slow') };
    expect(before.cat).toEqual({ phase: 'phase-done', head: 'exit 0 Allowed once', output: null });
    expect(before.slow).toEqual({ phase: 'phase-running', head: 'Running', output: 'started' });

    // Mid-call: the reloaded window and a second tab show both cards as they were.
    await page.reload();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    await expect.poll(() => cardState(page, 'toolu_slow')).toEqual(before.slow);
    expect(await cardState(page, 'toolu_cat')).toEqual(before.cat);
    const second = await window.openPage();
    await expect.poll(() => cardState(second, 'toolu_slow')).toEqual(before.slow);
    expect(await cardState(second, 'toolu_cat')).toEqual(before.cat);
    await screenshot(page, 'chat-tool-cards-reloaded-mid-call');

    // The call ends: each window finishes the card it rebuilt, once, with no second card.
    writeFileSync(join(folder, 'go'), '');
    for (const on of [page, second]) {
      await on.locator('[data-agent-running="false"]').waitFor();
      await expect.poll(() => cardState(on, 'toolu_slow').then((state) => state.phase)).toBe('phase-done');
      expect(await cards(on).count()).toBe(2);
      expect((await cardState(on, 'toolu_slow')).head).toBe('exit 0 Allowed once');
    }
    expect(existsSync(join(folder, 'go'))).toBe(true);

    // After the task: a reload shows the recorded results and keeps the badges.
    await page.reload();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    await expect.poll(() => cards(page).count()).toBe(2);
    expect(await cardState(page, 'toolu_cat')).toEqual(before.cat);
    expect(await cardState(page, 'toolu_slow')).toEqual({ phase: 'phase-done', head: 'exit 0 Allowed once', output: null });
    await card(page, 'toolu_slow').locator('.tool-head').click();
    expect(await card(page, 'toolu_slow').locator('.command-output').innerText()).toContain('started\nfinished');
    await card(page, 'toolu_cat').locator('.tool-head').click();
    expect(await card(page, 'toolu_cat').locator('.command-output').innerText()).toContain('remember the milk');
    await screenshot(page, 'chat-tool-cards-reloaded-after');
    await window.closePages();
  }, 90_000);
});
