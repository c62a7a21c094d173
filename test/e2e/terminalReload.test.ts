import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { runInShell, until } from './support/until';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import type {} from '../../renderer/terminal/testHookTypes';
import { reply, text, toolUse } from '../support/scriptedAnthropic';

/*
 * Terminals that survive a reload, in a real Chromium against a real `keel web` child: main keeps
 * each shell's screen (a headless xterm.js) and a page that attaches gets it back, scrollback
 * included, then the live output from where the snapshot ends; the Agent tab gets the session's
 * earlier commands back; a second page sees the same shells. Runs in order, sharing the child.
 */

const PROMPT = '[keel-prompt] ';
const AGENT_COMMAND = 'echo agent-before-reload-$((20+1))';

let page: Page;
let shell: string;
const home = tempDir('terminal-reload-home');
const root = tempDir('terminal-reload-ws');
const folder = join(root.path, 'reload-project');
mkdirSync(folder);
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'full_auto' }));

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  script: [reply(toolUse('bash', { command: AGENT_COMMAND })), reply(text('Done.'))],
  page: { viewport: { width: 1400, height: 900 } },
});

const hook = (on: Page) => ({
  lines: (id: string) => on.evaluate((tab) => window.__keelTerminals?.lines(tab) ?? [], id),
  tabs: () => on.evaluate(() => window.__keelTerminals?.tabs() ?? []),
  cell: (id: string, line: number, column: number) => on.evaluate(([tab, l, c]) => window.__keelTerminals!.cell(tab, l, c), [id, line, column] as const),
  findLine: (id: string, needle: string) => on.evaluate(([tab, n]) => window.__keelTerminals?.findLine(tab, n) ?? -1, [id, needle] as const),
});

/** Opens the terminal panel of `on` and returns its first shell tab's id. */
async function openShell(on: Page): Promise<string> {
  // The panel's state outlives a reload: open it only when it is closed.
  const toggle = on.getByRole('button', { name: 'Terminal', exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const tabs = await until(hook(on).tabs, (list) => list.some((tab) => tab.kind === 'shell'), 'a shell tab', 15_000);
  // After agent commands the panel opens on the Agent tab: the shell is the tab beside it.
  await on.getByRole('tab').filter({ hasNotText: 'Agent' }).first().click();
  return tabs.find((tab) => tab.kind === 'shell')!.id;
}

const count = (lines: string[], exact: string) => lines.filter((line) => line === exact).length;

beforeAll(() => {
  ({ page } = scripted);
});

afterAll(() => {
  home.remove();
  root.remove();
});

describe('terminals across a reload', () => {
  test('before: the agent runs a command, and the shell prints scrollback, CJK split between reads, and keeps printing', { timeout: 90_000 }, async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Run a command');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    // Not running is also how the page was before the task: wait for the task's outcome first (its
    // command would otherwise open the Agent tab under the keys typed into the shell below).
    await page.locator('section.chat-panel [data-outcome="done"]').waitFor({ timeout: 20_000 });
    await page.locator('.chat-panel[data-agent-running="false"]').waitFor({ timeout: 20_000 });

    shell = await openShell(page);
    await until(
      () => hook(page).lines(shell),
      (lines) => lines.some((line) => line.trim() !== ''),
      'the first prompt',
      15_000,
    );
    await page.locator('#terminal-pane').click();
    await runInShell(page, shell, `PS1='[keel''-prompt] '`, PROMPT);
    // 3,000 lines: most of them in the scrollback, far above the screen.
    await runInShell(page, shell, 'seq -f "line-%g" 1 3000', 'line-3000');
    // 中 (e4 b8 ad) split between two writes of the shell, so two pty reads and two frames.
    await runInShell(page, shell, String.raw`printf '\xe4\xb8'; sleep 0.3; printf '\xad\xe6\x96\x87-split\n'`, '中文-split');
    const line = await hook(page).findLine(shell, '中文-split');
    expect(await hook(page).cell(shell, line, 0)).toEqual({ chars: '中', width: 2 });
    // Output that goes on across the reload.
    await page.keyboard.type('for i in $(seq 1 30); do echo tick-$i; sleep 0.1; done; echo ticks-$((10+5))');
    await page.keyboard.press('Enter');
    await until(
      () => hook(page).lines(shell),
      (lines) => lines.includes('tick-3'),
      'the ticks to start',
      15_000,
    );
  });

  test(
    'after a reload mid-output: the screen and scrollback are back, the output goes on without gaps or repeats, and the Agent tab has the earlier command',
    { timeout: 90_000 },
    async () => {
      await page.reload();
      await page.locator('section.chat-panel textarea').waitFor();
      const id = await openShell(page);
      expect(id).toBe(shell);
      const lines = await until(
        () => hook(page).lines(shell),
        (all) => all.includes('ticks-15'),
        'the ticks to finish after the reload',
        20_000,
      );
      expect(lines).toContain('line-1');
      expect(lines).toContain('line-3000');
      expect(lines.some((text) => text.includes('中文-split'))).toBe(true);
      for (let i = 1; i <= 30; i++) expect(count(lines, `tick-${i}`), `tick-${i} once`).toBe(1);
      const line = await hook(page).findLine(shell, '中文-split');
      expect(await hook(page).cell(shell, line, 0)).toEqual({ chars: '中', width: 2 });

      // The shell answers the reloaded page.
      await page.locator('#terminal-pane').click();
      await runInShell(page, shell, 'echo after-reload-$((1+1))', 'after-reload-2');
      await screenshot(page, 'terminal-after-reload');

      await page.getByRole('tab', { name: 'Agent' }).click();
      const agent = await until(
        () => hook(page).lines('agent'),
        (all) => all.some((text) => text.includes('agent-before-reload-21')),
        'the earlier agent command',
        15_000,
      );
      expect(agent.join('\n')).toContain(AGENT_COMMAND);
      await screenshot(page, 'terminal-agent-after-reload');
    },
  );

  test('a second page on the same keel web sees the same shells, and what is typed in one shows in both', { timeout: 90_000 }, async () => {
    const second = { page: await scripted.openPage({ viewport: { width: 1400, height: 900 } }) };
    try {
      const id = await openShell(second.page);
      expect(id).toBe(shell);
      const lines = await until(
        () => hook(second.page).lines(shell),
        (all) => all.includes('after-reload-2'),
        'the shell’s screen in the second page',
        15_000,
      );
      expect(lines).toContain('line-3000');
      await second.page.locator('#terminal-pane').click();
      await runInShell(second.page, shell, 'echo from-second-$((3+4))', 'from-second-7');
      await until(
        () => hook(page).findLine(shell, 'from-second-7'),
        (found) => found >= 0,
        'the second page’s command in the first page',
        15_000,
      );
      await screenshot(second.page, 'terminal-second-page');
    } finally {
      await second.page.context().close();
    }
  });
});
