import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { sandboxWorksHere } from '../support/sandboxProbe';
import { screenshot } from './support/board';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

// Approval cards follow the sandbox, in the window (issue 23): in Ask first a sandboxed command's
// card says what it may and may not do, "Allow for this session" then lets the next sandboxed
// commands run without a card, and a command that asks to leave the sandbox still gets a card of
// its own, saying so, with no session-wide allowance.

const works = await sandboxWorksHere('the sandboxed approval cards in the window');

const home = tempDir('sandbox-cards-home');
const root = tempDir('sandbox-cards-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);

afterAll(() => {
  home.remove();
  root.remove();
});

describe.runIf(works)('approval cards with the sandbox on (Ask first)', () => {
  const window = useScriptedWindow(
    {
      workspace: folder,
      keelHome: home.path,
      settings: { approvalMode: 'ask' },
      // The test run turns the sandbox off for its children (vitest.config); this window has it.
      env: { KEEL_SANDBOX: 'auto' },
      script: [
        reply(text('Writing the first file.'), toolUse('bash', { command: 'echo one > one.txt' }, 'toolu_one')),
        reply(toolUse('bash', { command: 'echo two > two.txt' }, 'toolu_two')),
        reply(toolUse('bash', { command: 'echo three > three.txt', leave_sandbox: true }, 'toolu_out')),
        reply(text('All three written.')),
      ],
    },
    60_000,
  );
  let page: Page;
  beforeAll(() => {
    page = window.page;
  });

  const cards = () => page.locator('section.chat-panel .approval-card');
  const toolCard = (id: string) => page.locator(`section.chat-panel .tool-card[data-tool-id="${id}"]`);

  test('"Allow for this session" covers the sandboxed commands; leaving the sandbox asks on its own card', async () => {
    await expect.poll(() => page.locator('.status-bar .status-sandbox').innerText(), { timeout: 30_000 }).toBe('Sandboxed (bwrap)');
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Write three files');
    await composer.press('Enter');

    const first = cards().first();
    await first.waitFor();
    expect(await first.locator('.approval-sandbox').innerText()).toMatch(/Runs in the sandbox: it may write only in this folder/);
    const forSession = first.getByRole('button', { name: /Allow for this session/ });
    expect(await forSession.innerText()).toMatch(/every command that stays in the sandbox/);
    await screenshot(page, 'sandbox-card-first');
    await forSession.click();

    // The second command runs unasked; the third, leaving the sandbox, asks again.
    const leaving = cards().first();
    await leaving.waitFor();
    expect(await leaving.innerText()).toContain('echo three > three.txt');
    await expect.poll(() => toolCard('toolu_two').getAttribute('class')).toContain('phase-done');
    expect(readFileSync(join(folder, 'two.txt'), 'utf8')).toBe('two\n');
    expect(await cards().count()).toBe(1);
    expect(await leaving.innerText()).toMatch(/It asks to run outside the sandbox: unconfined, it may write anywhere/);
    expect(await leaving.locator('.approval-sandbox').count()).toBe(0);
    expect(await leaving.getByRole('button', { name: /Allow for this session/ }).count()).toBe(0);
    expect(existsSync(join(folder, 'three.txt'))).toBe(false);
    await screenshot(page, 'sandbox-card-leaving');

    await leaving.getByRole('button', { name: 'Allow once' }).click();
    await page.locator('[data-agent-running="false"]').waitFor();
    expect(readFileSync(join(folder, 'three.txt'), 'utf8')).toBe('three\n');
    expect(readFileSync(join(folder, 'one.txt'), 'utf8')).toBe('one\n');
    // Three commands, two cards: the model asked for no more.
    expect(window.server.requests).toHaveLength(4);
  }, 90_000);
});
