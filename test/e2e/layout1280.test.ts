import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { reply, text, toolUse } from '../support/scriptedAnthropic';
import { board, screenshot } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * A laptop's 1280×800 with the terminal open, mid-task: a 4-step plan and a file change waiting
 * for approval with a long diff. The plan's steps, the approval's buttons and the message box are
 * all in view at once, the approval card scrolls inside itself (one scrollbar, not the chat's
 * too), and axe-core finds nothing serious or critical, in light and in dark.
 */

const home = tempDir('laptop-home');
const root = tempDir('laptop-ws');
const folder = join(root.path, 'laptop-project');
mkdirSync(folder);
const ORIGINAL = Array.from({ length: 60 }, (_, i) => `line ${i + 1} = ${i + 1}`).join('\n') + '\n';
writeFileSync(join(folder, 'values.py'), ORIGINAL);
const CHANGED = ORIGINAL.split('\n')
  .map((line, i) => (i % 2 === 0 && line ? `${line} + 0  # a long comment that makes this diff line wider than the chat so that it has to wrap` : line))
  .join('\n');
const PLAN = [
  { content: 'Read values.py', status: 'completed' },
  { content: 'Fix the rounding in total()', status: 'in_progress' },
  { content: 'Add a test for total()', status: 'pending' },
  { content: 'Run the tests', status: 'pending' },
];

afterAll(() => {
  home.remove();
  root.remove();
});

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  settings: { approvalMode: 'ask' },
  script: [
    reply(text('Planning.'), toolUse('todo', { items: PLAN })),
    reply(text('Changing the file.'), toolUse('write_file', { path: 'values.py', content: CHANGED })),
  ],
  page: { viewport: { width: 1280, height: 800 } },
  ready: (page) => board(page).waitFor(),
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function axeProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

/** Heights of what shares the chat's column, and whether each key thing lies inside the window. */
function measure(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect() ?? null;
    const inView = (rect: DOMRect | null) => rect !== null && rect.top >= 0 && rect.bottom <= window.innerHeight + 0.5 && rect.height > 0;
    /** In the window and not clipped nor covered: what a click at its centre hits. */
    const reachable = (selector: string) => {
      const element = document.querySelector(selector);
      const rect = element?.getBoundingClientRect() ?? null;
      if (!element || !rect || !inView(rect)) return false;
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return hit !== null && (hit === element || element.contains(hit));
    };
    const steps = [...document.querySelectorAll('section.plan-board .plan-item')].map((item) => item.getBoundingClientRect());
    const dock = document.querySelector('.approval-dock');
    const chatBody = document.querySelector('.chat-body');
    return {
      chatBody: Math.round(box('.chat-body')?.height ?? 0),
      dock: Math.round(box('.approval-dock')?.height ?? 0),
      composer: Math.round(box('.composer')?.height ?? 0),
      terminal: Math.round(box('.terminal-panel')?.height ?? 0),
      stepsInView: steps.filter((rect) => inView(rect)).length,
      steps: steps.length,
      allowInView: reachable('.approval-card .button-primary'),
      denyInView: reachable('.approval-card .button-danger'),
      composerInView: reachable('#composer-input'),
      dockScrolls: dock ? dock.scrollHeight > dock.clientHeight + 1 : false,
      chatScrolls: chatBody ? chatBody.scrollHeight > chatBody.clientHeight + 1 : false,
    };
  });
}

/** Sets the theme, then reloads the page as a person coming back to it does; the approval is still waiting. */
async function setTheme(page: Page, theme: 'light' | 'dark', waiting = true): Promise<void> {
  const socket = await connectKeelSocket(scripted.keel.url);
  const result = await socket.request('settings.update', { theme });
  socket.close();
  if (!result.ok) throw new Error(result.error.message);
  await page.reload();
  await board(page).waitFor();
  if (waiting) await page.locator('section.chat-panel .approval-card').waitFor();
  await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
}

describe('a laptop window, 1280×800', () => {
  test('mid-task with the terminal open: plan steps, approval and message box in view; axe clean in light and dark', async () => {
    const page = scripted.page;
    await page.locator('#terminal-title').click();
    await page.locator('.terminal-panel .xterm').first().waitFor();
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Fix the rounding bug in values.py');
    await composer.press('Enter');
    await page.locator('section.chat-panel .approval-card').waitFor();
    await expect.poll(() => page.locator('section.plan-board .plan-item').count()).toBe(4);
    const found: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      const measured = await measure(page);
      await screenshot(page, `laptop-1280-approval-${theme}`);
      if (measured.stepsInView < 4) found.push(`${theme}: ${measured.stepsInView} of 4 plan steps in view`);
      if (!measured.allowInView || !measured.denyInView) found.push(`${theme}: the approval's buttons are out of view`);
      if (measured.chatScrolls && measured.dockScrolls) found.push(`${theme}: two scrollbars, the chat's and the approval's`);
      if (!measured.composerInView) found.push(`${theme}: the message box is out of view`);
      found.push(...(await axeProblems(page)).map((problem) => `${theme}: ${problem}`));
    }
    expect(found).toEqual([]);
  }, 90_000);

  test('after a Stop: the board says so and the steps of the plan stay in view, with the message box', async () => {
    const page = scripted.page;
    await page.locator('#composer-input').focus();
    await page.keyboard.press('Escape');
    await page.locator('[data-agent-running="false"]').waitFor();
    await page.locator('section.plan-board .stopped-banner').waitFor();
    const measured = await measure(page);
    await screenshot(page, 'laptop-1280-stopped');
    expect({ stepsInView: measured.stepsInView, composerInView: measured.composerInView }).toEqual({ stepsInView: 4, composerInView: true });
    expect(await axeProblems(page)).toEqual([]);
  }, 60_000);

  test('Settings and Changes: axe finds nothing serious or critical, in light and dark', async () => {
    const page = scripted.page;
    const found: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme, false);
      await page.keyboard.press('Control+,');
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.waitFor();
      await screenshot(page, `laptop-1280-settings-${theme}`);
      found.push(...(await axeProblems(page)).map((problem) => `settings ${theme}: ${problem}`));
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await page.locator('.header-actions .changes-button').click();
      await page.locator('.changes-panel').waitFor();
      await screenshot(page, `laptop-1280-changes-${theme}`);
      found.push(...(await axeProblems(page)).map((problem) => `changes ${theme}: ${problem}`));
      await page.locator('.header-actions .changes-button').click();
    }
    expect(found).toEqual([]);
  }, 90_000);
});
