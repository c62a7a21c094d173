import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LIMITS } from '../../common/limits';
import type {} from '../../renderer/terminal/testHookTypes';
import { reply, text, textOf, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { screenshot } from './support/board';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import { openShellTab, until } from './support/until';

/*
 * The window keeps to the contract's limits before it sends, against a real `keel web`: a paste
 * too long for a message is offered as a workspace file, a long terminal paste goes in pieces, and
 * the secret token leaves the address bar once the page has it (a reload of the tab still works).
 */

const KEY = 'sk-test-limits-0987654321';
const home = tempDir('limits-home');
const root = tempDir('limits-ws');
const folder = join(root.path, 'limits-project');

mkdirSync(folder);
const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  apiKey: KEY,
  script: [reply(text('I will read the pasted file.'))],
  ready: (page) => page.locator('section.chat-panel textarea').waitFor(),
});

let keel: KeelWeb;
let model: ScriptedAnthropic;
let page: Page;

const composer = () => page.locator('section.chat-panel textarea');

/** What a person's Ctrl+V does: a paste event with the text on the clipboard. */
async function pasteInto(selector: string, value: string): Promise<void> {
  await page.evaluate(
    ([target, pasted]) => {
      const element = document.querySelector(target)!;
      const data = new DataTransfer();
      data.setData('text/plain', pasted);
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [selector, value] as const,
  );
}

beforeAll(() => {
  ({ keel, server: model, page } = scripted);
});

afterAll(() => {
  home.remove();
  root.remove();
});

describe('limits in the window', () => {
  test('the token leaves the address bar after the page loads, and a reload of the tab still connects', async () => {
    const token = new URL(keel.url).searchParams.get('token')!;
    expect(page.url()).not.toContain(token);
    expect(page.url()).not.toContain('token=');
    await page.reload();
    await composer().waitFor();
    await until(() => composer().isEnabled(), Boolean, 'the workspace over a reconnected socket');
    expect(page.url()).not.toContain(token);
  });

  test('a paste too long for a message says so and is attached as a workspace file instead', async () => {
    const big = Array.from({ length: 15_000 }, (_, i) => `log line ${String(i).padStart(5, '0')}`).join('\n');
    expect(big.length).toBeGreaterThan(LIMITS.messageChars);
    await composer().fill('Summarise the errors in this log:');
    await pasteInto('section.chat-panel textarea', big);
    const notice = page.locator('.composer-oversize');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(
      `Too long: ${big.length.toLocaleString('en-US')} characters, limit ${LIMITS.messageChars.toLocaleString('en-US')}.`,
    );
    // The person's own words stay; the paste is held aside, not put in the box.
    expect(await composer().inputValue()).toBe('Summarise the errors in this log:');
    await screenshot(page, 'composer-too-long');

    await notice.getByRole('button', { name: 'Attach as a file' }).click();
    await notice.waitFor({ state: 'detached' });
    const draft = await composer().inputValue();
    const path = /(\.keel\/pastes\/paste-[\w-]+\.txt)/.exec(draft)?.[1];
    expect(path, draft).toBeTruthy();
    expect(draft.startsWith('Summarise the errors in this log:\n[Pasted text, ')).toBe(true);
    expect(readFileSync(join(folder, path!), 'utf8')).toBe(big);
    // One paste file, beside the .gitignore that keeps pastes out of the person's commits.
    expect(readdirSync(join(folder, '.keel', 'pastes')).sort()).toEqual(['.gitignore', path!.split('/').pop()]);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await until(
      async () => model.requests.length,
      (n) => n >= 1,
      'the model request',
    );
    expect(textOf(model.requests[0]!.body.messages[0])).toContain(path!);
  });

  test('a typed draft over the limit cannot be sent and offers the same way out', async () => {
    await composer().fill('x'.repeat(LIMITS.messageChars + 1));
    const notice = page.locator('.composer-oversize');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(`Too long: ${(LIMITS.messageChars + 1).toLocaleString('en-US')} characters`);
    expect(await page.getByRole('button', { name: /^(Send|Queue)$/ }).isDisabled()).toBe(true);
    await composer().fill('short again');
    await notice.waitFor({ state: 'detached' });
  });

  test('a terminal paste longer than one request reaches the shell whole, in pieces', { timeout: 120_000 }, async () => {
    const shell = await openShellTab(page);
    // Counts the pasted p's only (the terminal may wrap a paste in bracketed-paste markers).
    await page.keyboard.type('tr -cd p | wc -c');
    await page.keyboard.press('Enter');
    // Lines of 100 characters: the terminal's line discipline takes each line whole.
    const lines = Math.ceil((LIMITS.terminalInputChars * 2.5) / 100);
    const pasted = `${'p'.repeat(99)}\n`.repeat(lines);
    await pasteInto('#terminal-pane textarea', pasted);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+D');
    const expected = String(99 * lines);
    const found = await until(
      () => page.evaluate(([id, needle]) => window.__keelTerminals!.findLine(id, needle), [shell, expected] as const),
      (line) => line >= 0,
      `wc's count ${expected}`,
      60_000,
    ).catch(async (error: Error) => {
      const tail = (await page.evaluate((id) => window.__keelTerminals!.lines(id), shell)).slice(-8);
      throw new Error(`${error.message}\nlast lines: ${JSON.stringify(tail)}\nkeel web: ${keel.stderr().slice(-1000)}`);
    });
    expect(found).toBeGreaterThanOrEqual(0);
  });
});
