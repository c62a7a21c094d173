import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, textOf, toolUse, type ScriptedRequest } from '../support/scriptedAnthropic';
import { board, screenshot } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { gate } from './support/heldAnswer';
import { accessibilityProblems } from './support/axe';
import { commitFolder } from '../support/gitRepo';

/*
 * Helpers on the board (issue 25.4), in a real Chromium against `keel web` and the scripted model
 * playing three agents at once: the main agent delegates two steps of its plan in one answer; each
 * helper's step shows its owner, its live state and its own plan; the person rewords a step of
 * helper B's plan and only B's next request carries it; Stop on helper A stops A alone; a reload
 * mid-task brings it all back. Screenshots at 1280x800, light and dark; axe finds nothing serious.
 */

const TASK = 'Build the parser and its tests, with helpers';
const PARSE = 'Write the parser';
const TESTS = 'Write the tests';
const REPORT = 'Report what was done';
const A_INSTRUCTIONS = 'Write src/parser.ts: a function parse(text) that splits lines.';
const B_INSTRUCTIONS = 'Write test/parser.test.ts for parse(text).';
const A_READ = 'Read the grammar notes';
const A_WRITE = 'Write parse()';
const B_CASES = 'Write the test cases';
const B_REWORDED = 'Write the test cases, the empty input first';
const B_RUN = 'Run the tests';

const home = tempDir('helpers-home');
const workspace = tempDir('helpers-ws');
const aHeld = gate();
const bHeld = gate();

let scripted: ScriptedWindow;
let page: Page;

/** The panel under the step a helper owns. */
const panel = (p: Page, owner: string): Locator => p.locator(`section.helper-panel[data-helper-id="${owner}"]`);
const stepRow = (p: Page, content: string): Locator =>
  board(p)
    .locator('.plan-list > li')
    .filter({ has: p.getByRole('button', { name: content, exact: true }) })
    .first();
/** What the person reads of a helper: who, what it does, its own plan. */
async function shown(p: Page, owner: string): Promise<{ state: string; plan: string[] }> {
  const section = panel(p, owner);
  return {
    state: await section.locator('.helper-state').innerText(),
    plan: await section.locator('.helper-plan .helper-step .item-text, .helper-plan .helper-step-text').allInnerTexts(),
  };
}

const requestsOf = (name: string) => scripted.server.agent(name).requests;
const carries = (request: ScriptedRequest, words: string) => JSON.stringify(request.body.messages).includes(words);

async function setLanguage(language: 'en' | 'zh-CN'): Promise<void> {
  const socket = await connectKeelSocket(scripted.keel.url);
  const result = await socket.request('settings.update', { language });
  socket.close();
  if (!result.ok) throw new Error(result.error.message);
}

beforeAll(async () => {
  writeFileSync(join(workspace.path, 'README.md'), '# Parser\n\nLines in, lines out.\n');
  commitFolder(workspace.path);
  const plan = [
    { id: 'parse', content: PARSE, status: 'pending' },
    { id: 'tests', content: TESTS, status: 'pending' },
    { id: 'report', content: REPORT, status: 'pending', blockedBy: ['parse', 'tests'] },
  ];
  scripted = await openScriptedWindow({
    workspace: workspace.path,
    keelHome: home.path,
    model: {
      agents: [
        {
          name: 'main',
          firstMessage: (first) => first.startsWith(TASK),
          script: [
            reply(text('Two independent steps: helpers take them.'), toolUse('todo', { items: plan })),
            reply(toolUse('delegate', { item: 'parse', instructions: A_INSTRUCTIONS }), toolUse('delegate', { item: 'tests', instructions: B_INSTRUCTIONS })),
            reply(toolUse('todo', { items: plan.map((item) => ({ ...item, status: 'completed' })) })),
            reply(text('The tests are written; the parser was stopped.')),
          ],
        },
        {
          name: 'A',
          firstMessage: (first) => first.includes(A_INSTRUCTIONS),
          script: [
            reply(
              toolUse('todo', {
                items: [
                  { id: 'read', content: A_READ, status: 'in_progress', activeForm: 'Reading the grammar notes' },
                  { id: 'write', content: A_WRITE },
                ],
              }),
            ),
            aHeld.step,
          ],
        },
        {
          name: 'B',
          firstMessage: (first) => first.includes(B_INSTRUCTIONS),
          script: [
            reply(
              toolUse('todo', {
                items: [
                  { id: 'cases', content: B_CASES, status: 'in_progress', activeForm: 'Writing the test cases' },
                  { id: 'run', content: B_RUN },
                ],
              }),
            ),
            bHeld.step,
            reply(
              toolUse('todo', {
                items: [
                  { id: 'cases', content: B_REWORDED, status: 'completed' },
                  { id: 'run', content: B_RUN, status: 'completed' },
                ],
              }),
            ),
            reply(text('Wrote the test cases, the empty input first.')),
          ],
        },
      ],
    },
  });
  page = scripted.page;
}, 90_000);

afterAll(async () => {
  // A held answer of a stopped helper is answered, so the server has nothing left hanging.
  aHeld.release(reply(text('Stopped.')));
  bHeld.release(reply(text('Stopped.')));
  await scripted?.close();
  home.remove();
  workspace.remove();
});

describe('helpers on the board (keel web)', () => {
  test('two helpers’ steps show their owners, live states and own plans', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill(TASK);
    await page.keyboard.press('Enter');
    await Promise.all([aHeld.arrived, bHeld.arrived]);

    await expect.poll(() => shown(page, 'helper-1'), { timeout: 10_000 }).toEqual({ state: 'thinking', plan: [A_READ, A_WRITE] });
    await expect.poll(() => shown(page, 'helper-2'), { timeout: 10_000 }).toEqual({ state: 'thinking', plan: [B_CASES, B_RUN] });
    // Each under the step it owns.
    await expect.poll(() => stepRow(page, PARSE).locator('.owner-chip').innerText()).toBe('helper-1');
    await expect.poll(() => stepRow(page, TESTS).locator('.owner-chip').innerText()).toBe('helper-2');
    // Both asked at once: B's second request came before A's second was answered.
    expect(requestsOf('A')).toHaveLength(2);
    expect(requestsOf('B')).toHaveLength(2);

    await screenshot(page, 'helpers-board-1280-light');
    expect(await accessibilityProblems(page)).toEqual([]);
  }, 60_000);

  test('rewording a step of helper B’s plan reaches helper B alone', async () => {
    const b = panel(page, 'helper-2');
    await b.getByRole('button', { name: B_CASES, exact: true }).click();
    const editor = b.getByRole('textbox', { name: `Reword "${B_CASES}" in the plan of helper-2` });
    await editor.fill(B_REWORDED);
    await editor.press('Enter');
    await expect.poll(() => shown(page, 'helper-2')).toEqual({ state: 'thinking', plan: [B_REWORDED, B_RUN] });
    // The person's wording is not in helper A's plan, nor in the main plan.
    expect((await shown(page, 'helper-1')).plan).toEqual([A_READ, A_WRITE]);
  }, 30_000);

  test('Stop on one helper stops only it', async () => {
    await panel(page, 'helper-1').getByRole('button', { name: 'Stop helper-1' }).click();
    await expect.poll(() => shown(page, 'helper-1').then((s) => s.state), { timeout: 10_000 }).toBe('stopped');
    await expect.poll(() => panel(page, 'helper-1').locator('.helper-reason').innerText()).toBe('Stopped by you.');
    expect((await shown(page, 'helper-2')).state).toBe('thinking');
    await expect(panel(page, 'helper-2').getByRole('button', { name: 'Stop helper-2' }).isEnabled()).resolves.toBe(true);
  }, 30_000);

  test('a reload mid-task brings it all back', async () => {
    await page.reload();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
    await expect.poll(() => shown(page, 'helper-1'), { timeout: 10_000 }).toEqual({ state: 'stopped', plan: [A_READ, A_WRITE] });
    await expect.poll(() => shown(page, 'helper-2'), { timeout: 10_000 }).toEqual({ state: 'thinking', plan: [B_REWORDED, B_RUN] });

    const dark = await scripted.openPage({ colorScheme: 'dark' });
    await expect.poll(() => shown(dark, 'helper-2'), { timeout: 10_000 }).toEqual({ state: 'thinking', plan: [B_REWORDED, B_RUN] });
    await screenshot(dark, 'helpers-board-1280-dark');
    expect(await accessibilityProblems(dark)).toEqual([]);

    // The same board in 中文.
    await setLanguage('zh-CN');
    await dark.reload();
    await dark.locator('html[lang="zh-CN"]').waitFor();
    await expect.poll(() => shown(dark, 'helper-1').then((s) => s.state), { timeout: 10_000 }).toBe('已停止');
    expect((await shown(dark, 'helper-2')).state).toBe('正在思考');
    expect(await panel(dark, 'helper-2').getByRole('button', { name: '停止 helper-2' }).count()).toBe(1);
    await screenshot(dark, 'helpers-board-1280-dark-zh');
    await setLanguage('en');
    await scripted.closePages();
  }, 60_000);

  test('helper B’s next request carries the person’s wording; no other agent’s does', async () => {
    bHeld.release(reply(toolUse('read_file', { path: 'README.md' })));
    await expect.poll(() => requestsOf('B').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const next = requestsOf('B')[2]!;
    expect(textOf(next.body.messages.at(-1))).toContain(B_REWORDED);
    expect(requestsOf('A').some((request) => carries(request, B_REWORDED))).toBe(false);
    expect(requestsOf('main').some((request) => carries(request, `"${B_REWORDED}"`) && carries(request, 'plan-update'))).toBe(false);

    await expect.poll(() => shown(page, 'helper-2').then((s) => s.state), { timeout: 15_000 }).toBe('done');
    await panel(page, 'helper-2').getByText('Answer').click();
    await expect.poll(() => panel(page, 'helper-2').locator('.helper-answer-text').innerText()).toBe('Wrote the test cases, the empty input first.');
  }, 60_000);
});
