import type { Page } from 'playwright-core';
import type {} from '../../../renderer/terminal/testHookTypes';
import { until } from '../../support/until';

export { until };

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
