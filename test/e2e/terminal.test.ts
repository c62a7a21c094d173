import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addStep, screenshot, stepTexts } from './support/board';
import { runInShell, until } from './support/until';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import type {} from '../../renderer/terminal/testHookTypes';
import { reply, text, toolUse } from '../support/scriptedAnthropic';

/*
 * The integrated terminal in `keel web`, in a real Chromium against a real `keel web` child: a
 * shell tab's echo, CJK alignment, a `yes` flood stopped by Ctrl-C while the window stays
 * responsive, a closed tab leaving no process, and the agent's commands in the Agent tab. The
 * tests run in order and share one window. xterm.js's buffer is read through the test-only
 * `window.__keelTerminals` (installed only under automation).
 */

const PROMPT = '[keel-prompt] ';
const AGENT_OK = 'echo agent-says-$((40+2))';
const AGENT_FAIL = 'ls /nonexistent-keel-folder';
const AGENT_THIRD = 'echo third-$((1+2))';

let page: Page;
let shell: string;
const home = tempDir('terminal-home');
const root = tempDir('terminal-ws');
const folder = join(root.path, 'terminal-project');
mkdirSync(folder);
// The agent's commands run without asking, so that they go straight to the Agent tab.
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'full_auto' }));

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  script: [
    reply(toolUse('bash', { command: AGENT_OK })),
    reply(toolUse('bash', { command: AGENT_FAIL })),
    reply(text('Both commands ran.')),
    reply(toolUse('bash', { command: AGENT_THIRD })),
    reply(text('It ran.')),
  ],
});

const hook = {
  lines: (id: string) => page.evaluate((tab) => window.__keelTerminals!.lines(tab), id),
  findLine: (id: string, needle: string) => page.evaluate(([tab, n]) => window.__keelTerminals!.findLine(tab, n), [id, needle] as const),
  cell: (id: string, line: number, column: number) => page.evaluate(([tab, l, c]) => window.__keelTerminals!.cell(tab, l, c), [id, line, column] as const),
  tabs: () => page.evaluate(() => window.__keelTerminals?.tabs() ?? []),
  activeId: () => page.evaluate(() => window.__keelTerminals!.activeId()),
  renderedChars: (id: string) => page.evaluate((tab) => window.__keelTerminals!.renderedChars(tab), id),
};

/** Types a command line into the focused shell tab and waits for `expectText` in its buffer. */
const run = (command: string, expectText: string): Promise<number> => runInShell(page, shell, command, expectText, 10_000);

const processes = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });

beforeAll(() => {
  ({ page } = scripted);
});

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the terminal panel', () => {
  test('opening the panel starts a shell; typing in it shows the echo', async () => {
    const toggle = page.getByRole('button', { name: 'Terminal', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const tabs = await until(hook.tabs, (list) => list.some((tab) => tab.kind === 'shell'), 'a shell tab', 10_000);
    shell = tabs.find((tab) => tab.kind === 'shell')!.id;
    expect(await hook.activeId()).toBe(shell);
    expect(await page.getByRole('tab', { name: 'Agent' }).getAttribute('aria-selected')).toBe('false');
    await until(
      () => hook.renderedChars(shell),
      (chars) => chars > 0,
      'the first prompt',
      10_000,
    );
    await page.locator('#terminal-pane').click();
    // Typed in two quoted pieces, so that the echoed command line does not read as the prompt.
    await run(`PS1='[keel''-prompt] '`, PROMPT);
    // The command line has `$((6*7))`; only the shell's answer has 42.
    await run('echo hello-$((6*7))', 'hello-42');
    // The grid is fitted to the pane, wider than the 80 columns it was started with.
    const size = await page.evaluate((tab) => window.__keelTerminals!.size(tab), shell);
    expect(size!.cols).toBeGreaterThan(100);
  });

  test('CJK text is aligned: each character takes two cells', async () => {
    await run(String.raw`printf '\xe6\xb1\x89\xe5\xad\x97ab\n'`, '汉字ab');
    const line = await hook.findLine(shell, '汉字ab');
    expect(await hook.cell(shell, line, 0)).toEqual({ chars: '汉', width: 2 });
    expect(await hook.cell(shell, line, 2)).toEqual({ chars: '字', width: 2 });
    expect(await hook.cell(shell, line, 4)).toEqual({ chars: 'a', width: 1 });
    expect(await hook.cell(shell, line, 5)).toEqual({ chars: 'b', width: 1 });
    await screenshot(page, 'terminal-light');
  });

  test('a `yes` flood stops at Ctrl-C, and the window stays responsive meanwhile', async () => {
    await page.keyboard.type('yes keel-flood');
    await page.keyboard.press('Enter');
    const before = await hook.renderedChars(shell);
    await until(
      () => hook.renderedChars(shell),
      (chars) => chars > before + 500_000,
      'the flood',
      10_000,
    );
    // The board still answers during the flood: a step added goes through main and back.
    await addStep(page, 'Added during the flood');
    expect(await stepTexts(page)).toContain('Added during the flood');
    const flowing = await hook.renderedChars(shell);
    await until(
      () => hook.renderedChars(shell),
      (chars) => chars > flowing + 100_000,
      'the flood still flowing',
      10_000,
    );

    await page.locator('#terminal-pane').click();
    // Behaviour, not speed (speeds belong in `npm run bench`): the prompt comes back after Ctrl-C,
    // within a deadline generous enough for a busy machine.
    const prompt = page.evaluate(([tab, needle]) => window.__keelTerminals!.waitForOutput(tab, needle, 20_000), [shell, PROMPT] as const);
    await page.keyboard.press('Control+C');
    await prompt;
    await run('echo after-$((2+3))', 'after-5');
    // The scrollback is bounded.
    expect((await hook.lines(shell)).length).toBeLessThanOrEqual(10_000 + 100);
  });

  test('closing a tab kills what it started', async () => {
    await page.getByRole('button', { name: 'New terminal' }).click();
    const second = await until(hook.tabs, (list) => list.filter((tab) => tab.kind === 'shell').length === 2, 'a second shell tab', 10_000);
    const id = second.filter((tab) => tab.kind === 'shell')[1]!.id;
    expect(await hook.activeId()).toBe(id);
    await until(
      () => hook.renderedChars(id),
      (chars) => chars > 0,
      'the second prompt',
      10_000,
    );
    const marker = `sleep 300.${process.pid}`;
    await page.keyboard.type(`${marker} & echo started-$((1+1))`);
    await page.keyboard.press('Enter');
    await until(
      () => hook.findLine(id, 'started-2'),
      (line) => line >= 0,
      'the background job',
      10_000,
    );
    expect(processes()).toContain(marker);

    const tab = page.getByRole('tab', { name: 'bash 2' }).or(page.getByRole('tab', { selected: true }));
    const name = (await tab.first().textContent()) ?? '';
    // The pointer's × (the keyboard closes with Delete; the × is not in the tab list's accessibility tree).
    await page.getByTitle(`Close ${name}`, { exact: true }).click();
    await until(
      async () => processes().includes(marker),
      (alive) => !alive,
      'the background sleep to end',
      8_000,
    );
    expect((await hook.tabs()).some((entry) => entry.id === id)).toBe(false);
    expect(await hook.activeId()).toBe(shell);
  });

  test('the agent’s commands appear in the Agent tab with their exit status; a badge when collapsed', async () => {
    // Collapsed: the commands are counted on a badge, and the panel is not forced open.
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Run two commands');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    const pill = page.getByRole('button', { name: /Agent/ }).filter({ has: page.locator('.terminal-badge') });
    await pill.waitFor({ timeout: 15_000 });
    await until(
      () => pill.locator('.terminal-badge').textContent(),
      (count) => count === '2',
      'two agent commands on the badge',
      15_000,
    );
    expect(await page.getByRole('button', { name: 'Terminal', exact: true }).getAttribute('aria-expanded')).toBe('false');

    await pill.click();
    expect(await page.getByRole('tab', { name: 'Agent' }).getAttribute('aria-selected')).toBe('true');
    const lines = await until(
      () => hook.lines('agent'),
      (all) => all.some((line) => line.includes('exit code 2')),
      'the second command to end',
      15_000,
    );
    const text = lines.join('\n');
    expect(text).toContain(`$ ${AGENT_OK}`);
    expect(text).toMatch(/^agent-says-42$/m);
    expect(text).toContain('✓ exit code 0');
    expect(text).toContain(`$ ${AGENT_FAIL}`);
    expect(text).toContain('✗ exit code 2');
    expect(text.indexOf(AGENT_OK)).toBeLessThan(text.indexOf('agent-says-42'));
    expect(text.indexOf('agent-says-42')).toBeLessThan(text.indexOf('✓ exit code 0'));
    // Read-only: typing there sends nothing.
    await page.locator('#terminal-pane').click();
    await page.keyboard.type('nothing');
    expect((await hook.lines('agent')).join('\n')).not.toContain('nothing');
    await screenshot(page, 'terminal-agent');
  });

  test('expanding the panel after agent commands shows the Agent tab; another session starts it over', async () => {
    // The person works in their shell, then collapses the panel; the agent runs a command meanwhile.
    await page.getByRole('tab', { name: 'bash' }).click();
    expect(await hook.activeId()).toBe(shell);
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Run one more');
    await page.getByRole('textbox', { name: 'Message to the agent' }).press('Enter');
    const pill = page.getByRole('button', { name: /Agent/ }).filter({ has: page.locator('.terminal-badge') });
    await pill.waitFor({ timeout: 15_000 });
    await page.locator('.chat-panel[data-agent-running="false"]').waitFor({ timeout: 15_000 });
    await screenshot(page, 'terminal-agent-badge-collapsed');

    // The panel's own toggle (not the badge) opens it on the Agent tab, not on the shell.
    await page.getByRole('button', { name: 'Terminal', exact: true }).click();
    expect(await page.getByRole('tab', { name: 'Agent' }).getAttribute('aria-selected')).toBe('true');
    await until(
      () => hook.lines('agent'),
      (all) => all.some((line) => line.includes('third-3')),
      'the third command',
      10_000,
    );
    await screenshot(page, 'terminal-agent-expanded');

    // A new session: the Agent tab shows none of the previous session's commands.
    await page.getByRole('navigation', { name: 'Sessions and folders' }).getByRole('button', { name: 'New session', exact: true }).click();
    await until(
      () => hook.lines('agent'),
      (all) => !all.join('\n').includes('third-3'),
      'the Agent tab to start over',
      10_000,
    );
    const text = (await hook.lines('agent')).join('\n');
    expect(text).not.toContain(AGENT_OK);
    expect(text).toContain('Commands the agent runs appear here');
    await screenshot(page, 'terminal-agent-new-session');

    // Back to the first session: its commands are there again, as they ran, and only once.
    await page
      .getByRole('navigation', { name: 'Sessions and folders' })
      .getByRole('button', { name: /^Run two commands/ })
      .click();
    const again = await until(
      () => hook.lines('agent'),
      (all) => all.some((line) => line.includes('third-3')),
      'the first session’s commands',
      10_000,
    );
    const replayed = again.join('\n');
    expect(replayed.split(`$ ${AGENT_OK}`)).toHaveLength(2);
    expect(replayed).toContain('✗ exit code 2');
    expect(replayed.indexOf(AGENT_OK)).toBeLessThan(replayed.indexOf(AGENT_THIRD));
    await screenshot(page, 'terminal-agent-session-back');
  });

  test('a reloaded window re-attaches to its shells; the dark theme', async () => {
    const other = await scripted.openPage({ colorScheme: 'dark' });
    if ((await other.getByRole('button', { name: 'Terminal', exact: true }).getAttribute('aria-expanded')) === 'false') {
      await other.getByRole('button', { name: 'Terminal', exact: true }).click();
    }
    const tabs = await until(
      () => other.evaluate(() => window.__keelTerminals?.tabs() ?? []),
      (list) => list.some((tab) => tab.kind === 'shell'),
      'the shell re-attached',
      10_000,
    );
    expect(tabs.filter((tab) => tab.kind === 'shell').map((tab) => tab.id)).toEqual([shell]);
    await other.getByRole('tab', { name: 'bash' }).click();
    await other.locator('#terminal-pane').click();
    await runInShell(
      other,
      shell,
      String.raw`printf '\e[31mred\e[0m \e[32mgreen\e[0m \e[34mblue\e[0m \xe6\xb1\x89\xe5\xad\x97 😀 https://example.com\n'`,
      'https://example.com',
      10_000,
    );
    const background = await other.evaluate(() => getComputedStyle(document.querySelector('.terminal-host .xterm-viewport')!).backgroundColor);
    expect(background).toBe('rgb(21, 22, 26)');
    await screenshot(other, 'terminal-dark');
    await other.context().close();
  });
});
