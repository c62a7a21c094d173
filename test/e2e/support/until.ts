import type { Page } from 'playwright-core';
import type {} from '../../../renderer/terminal/testHookTypes';

/** Reads until `ok` holds, every 50 ms; fails after `timeoutMs` saying what it waited for and the last value. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(-500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens the terminal panel, waits for a shell tab's first prompt, and clicks into it: returns the tab's id. */
export async function openShellTab(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Terminal', exact: true }).click();
  const tabs = await until(
    () => page.evaluate(() => window.__keelTerminals?.tabs() ?? []),
    (list) => list.some((tab) => tab.kind === 'shell'),
    'a shell tab',
  );
  const shell = tabs.find((tab) => tab.kind === 'shell')!.id;
  await until(
    () => page.evaluate((id) => window.__keelTerminals!.renderedChars(id), shell),
    (chars) => chars > 0,
    'the first prompt',
  );
  await page.locator('#terminal-pane').click();
  return shell;
}

/** Types a command line into the focused shell tab and waits for `expectText` in its buffer: resolves with its line. */
export async function runInShell(page: Page, shell: string, command: string, expectText: string, timeoutMs = 15_000): Promise<number> {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
  return until(
    // The hook is gone for a moment while the page reloads.
    () => page.evaluate(([tab, needle]) => window.__keelTerminals?.findLine(tab, needle) ?? -1, [shell, expectText] as const),
    (line) => line >= 0,
    `"${expectText}" in the shell tab`,
    timeoutMs,
  );
}
