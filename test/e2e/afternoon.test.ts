import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { reply, text, textOf, toolResults, toolResultText, toolUse, type ScriptedRequest } from '../support/scriptedAnthropic';
import { accessibilityProblems } from './support/axe';
import { board, boardVersion, screenshot, screenshotsWanted, stepTexts, waitForNewVersion } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { gate } from './support/heldAnswer';
import { tempDir } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';

/*
 * An afternoon of a new user in `keel web` with a scripted model, in order on one page: a small
 * Python project with a rounding bug is opened from the welcome screen; the task gets a 4-step
 * plan; one command is allowed, another denied; the person adds a step and rewords one on the
 * board mid-task; the model's next plan keeps the added step and the one after drops it, which the
 * board, the chat and the model's todo result all say, with Put it back; Stop, Continue; a reload
 * mid-turn; Changes; the approval mode from Settings; 简体中文 and back; three window sizes; part of
 * it by keyboard alone; axe-core on the welcome, main, Settings and Changes screens.
 */

const READ = 'Read calc.py';
const FIX = 'Fix the rounding in total()';
const RUN = 'Run the tests';
const RUN_MINE = 'Run python3 -m unittest';
const REPORT = 'Report what changed';
const MINE = 'Add a changelog line';
const DENY_REASON = 'No installs today';
/** A command that runs until the test makes the file `go` in the folder. */
const WAIT = (name: string) => `echo ${name}; while [ ! -f go ]; do sleep 0.1; done; echo done`;

const BUGGY = 'def total(prices):\n    """The sum of the prices, rounded to cents."""\n    return round(sum(prices), 1)\n';
const FIXED = BUGGY.replace('round(sum(prices), 1)', 'round(sum(prices), 2)');
const TESTS = [
  'import unittest',
  'from calc import total',
  '',
  'class TotalTest(unittest.TestCase):',
  '    def test_cents(self):',
  '        self.assertEqual(total([0.1, 0.25]), 0.35)',
  '',
  "if __name__ == '__main__':",
  '    unittest.main()',
  '',
].join('\n');

const home = tempDir('afternoon-home');
const root = tempDir('afternoon-ws');
const folder = join(root.path, 'rounding');
mkdirSync(folder);
writeFileSync(join(folder, 'calc.py'), BUGGY);
writeFileSync(join(folder, 'test_calc.py'), TESTS);

const items = (...steps: [string, string][]) => ({ items: steps.map(([content, status]) => ({ content, status })) });
const held = gate();

const scripted = useScriptedWindow(
  {
    workspace: null,
    keelHome: home.path,
    ready: (page) => page.getByRole('combobox', { name: 'Folder path' }).waitFor(),
    script: [
      // 1: the plan.
      reply(text('A plan first.'), toolUse('todo', items([READ, 'in_progress'], [FIX, 'pending'], [RUN, 'pending'], [REPORT, 'pending']), 'toolu_plan1')),
      // 2, 3: a command allowed, one denied.
      reply(text('Reading it.'), toolUse('bash', { command: 'cat calc.py' }, 'toolu_cat')),
      reply(text('I want pytest.'), toolUse('bash', { command: 'pip install pytest' }, 'toolu_pip')),
      // 4: held while the person edits the board; then a file change.
      held.step,
      // 5: the next plan keeps the person's step and wording.
      reply(toolUse('todo', items([READ, 'completed'], [FIX, 'completed'], [RUN_MINE, 'in_progress'], [REPORT, 'pending'], [MINE, 'pending']), 'toolu_plan2')),
      reply(toolUse('bash', { command: 'python3 -m unittest -q' }, 'toolu_test')),
      // 7: two calls later, the person's step is dropped.
      reply(toolUse('todo', items([READ, 'completed'], [FIX, 'completed'], [RUN_MINE, 'completed'], [REPORT, 'in_progress']), 'toolu_plan3')),
      // 8: a long command, stopped by the person.
      reply(text('Checking once more.'), toolUse('bash', { command: WAIT('first') }, 'toolu_wait1')),
      // 9: after Continue, a long command during which the page reloads.
      reply(text('Going on.'), toolUse('bash', { command: WAIT('second') }, 'toolu_wait2')),
      reply(
        toolUse('todo', items([READ, 'completed'], [FIX, 'completed'], [RUN_MINE, 'completed'], [REPORT, 'completed'], [MINE, 'completed']), 'toolu_plan4'),
      ),
      reply(text('total() now rounds to cents; the test passes.')),
      // 12: after Settings → Full auto, a command without a card.
      reply(toolUse('bash', { command: 'python3 -m unittest -q' }, 'toolu_auto')),
      reply(text('Still green.')),
      // 14: after Settings → Auto-approve edits, an edit goes ahead and a command asks.
      reply(toolUse('edit_file', { path: 'calc.py', old_text: 'rounded to cents', new_text: 'rounded to whole cents' }, 'toolu_doc')),
      reply(toolUse('bash', { command: 'python3 -m unittest -q' }, 'toolu_asks')),
      reply(text('Docstring clearer, tests green.')),
    ],
  },
  90_000,
);

let page: Page;
const composer = (): Locator => page.getByRole('textbox', { name: 'Message to the agent' });
const chat = (): Locator => page.locator('section.chat-panel');
const approval = (): Locator => chat().locator('.approval-card');
const card = (id: string): Locator => chat().locator(`.tool-card[data-tool-id="${id}"]`);
const modeButton = (): Locator => page.locator('.status-bar .approval-mode > button');
const idle = () => page.locator('[data-agent-running="false"]').waitFor();
const request = (n: number): ScriptedRequest => scripted.server.requests[n - 1]!;
const focused = () =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const label = (element as HTMLInputElement).labels?.[0]?.textContent;
    return element.getAttribute('aria-label') || label || element.textContent || element.id;
  });
const waitForRequests = (count: number) => expect.poll(() => scripted.server.requests.length, { timeout: 20_000 }).toBe(count);

/** Scrolls the chat with the wheel, as a person does (it is virtualized: only rows near the view exist), until the card is there. */
async function showCard(id: string): Promise<Locator> {
  const one = card(id);
  if ((await one.count()) === 0) {
    const box = (await chat().locator('.transcript-scroll').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 80 && (await one.count()) === 0; i++) await page.mouse.wheel(0, i < 40 ? -300 : 300);
  }
  await one.scrollIntoViewIfNeeded();
  return one;
}

/** Back to the end of the chat, as "Jump to latest" offers once the person has scrolled up. */
async function toLatest(): Promise<void> {
  const jump = chat().getByRole('button', { name: 'Jump to latest' });
  if ((await jump.count()) > 0) await jump.click();
}

/** What a tool card says at a glance: its phase and the badge or spinner label. */
async function cardHead(id: string): Promise<{ phase: string; head: string }> {
  const one = await showCard(id);
  const phase = ((await one.getAttribute('class')) ?? '').split(' ').find((name) => name.startsWith('phase-')) ?? '';
  return { phase, head: (await one.locator('.tool-meta').innerText()).replace(/\s+/g, ' ').trim() };
}

/** Answers the waiting card with a click and waits for it to go (the next card may follow at once). */
async function allowWithMouse(): Promise<void> {
  const answered = (await approval().first().elementHandle())!;
  await approval().first().getByRole('button', { name: 'Allow once' }).click();
  await answered.waitForElementState('hidden');
}

/** test-results/screenshots/afternoon-NAME.png, with KEEL_SCREENSHOTS=1. */
async function shot(name: string): Promise<void> {
  await screenshot(page, `afternoon-${name}`);
}

/** Theme and language as another window sets them (for the screenshots only: the test sets them in Settings). */
async function setLook(look: { theme: 'light' | 'dark'; language: 'en' | 'zh-CN' }): Promise<void> {
  const socket = await connectKeelSocket(scripted.keel.url);
  const result = await socket.request('settings.update', look);
  socket.close();
  if (!result.ok) throw new Error(result.error.message);
  await page.reload();
  await board(page).waitFor();
  await page.waitForFunction(
    ([language, theme]) => document.documentElement.lang === language && document.documentElement.dataset.theme === theme,
    [look.language, look.theme],
  );
}

/** Opens Settings with its shortcut and waits for the dialog. */
async function openSettings(): Promise<Locator> {
  await page.keyboard.press('Control+,');
  const dialog = page.getByRole('dialog', { name: /^(Settings|设置)$/ });
  await dialog.waitFor();
  return dialog;
}

async function closeSettings(dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
}

const axeFound: string[] = [];
async function axe(where: string): Promise<void> {
  axeFound.push(...(await accessibilityProblems(page)).map((problem) => `${where}: ${problem}`));
}

afterAll(() => {
  home.remove();
  root.remove();
});

beforeAll(() => {
  page = scripted.page;
});

describe('an afternoon in keel web', () => {
  test('the welcome screen: the folder field has the focus; the folder opens by keyboard', async () => {
    await page.getByRole('heading', { level: 1 }).waitFor();
    await axe('welcome');
    await shot('welcome-1280-light');
    await expect.poll(focused).toBe('Folder path');
    await page.keyboard.type(folder);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'rounding' }).waitFor();
    await composer().waitFor();
    await board(page).waitFor();

    // Ask first, from the status bar's menu, by keyboard.
    await modeButton().focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByRole('menuitemradio', { name: /Ask first/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => modeButton().innerText()).toBe('Ask first');
  }, 60_000);

  test('the task: a 4-step plan, by keyboard a command allowed and another denied with a reason', async () => {
    await composer().focus();
    await page.keyboard.type('total() rounds 0.35 to 0.3; fix it so the test passes');
    await page.keyboard.press('Enter');
    await expect.poll(() => stepTexts(page)).toEqual([READ, FIX, RUN, REPORT]);

    // The card takes the focus; Tab, Enter allow it.
    await approval().waitFor();
    expect(await approval().innerText()).toContain('cat calc.py');
    await expect.poll(() => page.evaluate(() => document.activeElement?.className ?? '')).toContain('approval-card');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Allow once');
    await page.keyboard.press('Enter');

    // The second is denied with a reason the model reads.
    // The next card takes the focus too; the reason and Deny are a few Tabs on.
    await expect.poll(() => approval().innerText()).toContain('pip install pytest');
    await expect.poll(() => page.evaluate(() => document.activeElement?.className ?? '')).toContain('approval-card');
    const REASON = 'Reason for denying (optional, sent to the agent)';
    for (let i = 0; i < 4 && (await focused()) !== REASON; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe(REASON);
    await page.keyboard.type(DENY_REASON);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Deny');
    await page.keyboard.press('Enter');
    await held.arrived;
    expect(toolResultText(toolResults(request(3)).find((r) => r.tool_use_id === 'toolu_cat')!)).toContain('round(sum(prices), 1)');
    const denied = toolResults(request(4)).find((r) => r.tool_use_id === 'toolu_pip')!;
    expect(denied.is_error).toBe(true);
    expect(toolResultText(denied)).toContain(DENY_REASON);
    expect(await cardHead('toolu_cat')).toEqual({ phase: 'phase-done', head: 'exit 0 Allowed once' });
    expect((await cardHead('toolu_pip')).head).toContain('Denied');
    await shot('main-1280-light');
    await axe('main');
  }, 60_000);

  test('the person edits the plan mid-task; the next plan keeps the step, the one after drops it', async () => {
    // Adds a step by keyboard, rewords another.
    let version = await boardVersion(page);
    await page.getByRole('textbox', { name: 'New step' }).focus();
    await page.keyboard.type(MINE);
    await page.keyboard.press('Enter');
    version = await waitForNewVersion(page, version);
    await page.getByRole('button', { name: RUN, exact: true }).focus();
    await page.keyboard.press('F2');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(RUN_MINE);
    await page.keyboard.press('Enter');
    await waitForNewVersion(page, version);
    await page.locator('.item-editor').waitFor({ state: 'detached' });
    expect(await stepTexts(page)).toEqual([READ, FIX, RUN_MINE, REPORT, MINE]);

    // The held round answers with a file change, allowed with the mouse.
    held.release(
      reply(text('Fixing it.'), toolUse('edit_file', { path: 'calc.py', old_text: 'round(sum(prices), 1)', new_text: 'round(sum(prices), 2)' }, 'toolu_edit')),
    );
    await approval().waitFor();
    expect(await approval().innerText()).toContain('round(sum(prices), 2)');
    await allowWithMouse();

    // The model was told of the person's edit, then kept it.
    await waitForRequests(6);
    const update = textOf(request(5).body.messages.at(-1));
    expect(update).toContain('<plan-update source="user">');
    expect(update).toContain(MINE);
    expect(update).toContain(RUN_MINE);
    expect(readFileSync(join(folder, 'calc.py'), 'utf8')).toBe(FIXED);

    // The test command: allowed; then the plan that drops the person's step.
    await approval().waitFor();
    await allowWithMouse();
    await waitForRequests(8);
    expect(toolResultText(toolResults(request(7)).find((r) => r.tool_use_id === 'toolu_test')!)).toContain('OK');
    const plan3 = toolResultText(toolResults(request(8)).find((r) => r.tool_use_id === 'toolu_plan3')!);
    expect(plan3).toContain(`it removes the person's step "${MINE}"`);

    const onBoard = board(page).locator('.board-overrides');
    await onBoard.waitFor();
    expect(await onBoard.innerText()).toContain(`The agent removed your step “${MINE}”`);
    const inChat = chat().locator('.notice-plan_override');
    await inChat.waitFor();
    expect(await inChat.innerText()).toContain(`The agent removed your step “${MINE}”`);
    expect(await inChat.getByRole('button', { name: 'Put it back' }).count()).toBe(1);

    // The plan that kept the step says the person added and reworded it, not the agent.
    const kept = await showCard('toolu_plan2');
    await kept.locator('.tool-head').click();
    const yours = await kept.getByRole('list', { name: 'Your edits since the agent’s previous plan' }).innerText();
    expect(yours).toContain(`Added “${MINE}”`);
    expect(yours).toContain(`Reworded “${RUN}” to “${RUN_MINE}”`);
    const theirs = await kept.getByRole('list', { name: 'What the agent changed' }).innerText();
    expect(theirs).not.toContain('Added');
    expect(theirs).not.toContain('Reworded');
    expect(theirs).toContain(`“${FIX}”: pending → completed`);
    await kept.locator('.tool-head').click();
    await toLatest();
    await onBoard.getByRole('button', { name: 'Put it back' }).click();
    await expect.poll(() => stepTexts(page)).toEqual([READ, FIX, RUN_MINE, REPORT, MINE]);
  }, 60_000);

  test('Esc stops the task; the focus stays where the person goes on', async () => {
    await approval().waitFor();
    await allowWithMouse();
    await card('toolu_wait1').and(page.locator('.phase-running')).waitFor();
    await page.keyboard.press('Escape');
    await idle();
    expect(await focused()).toBe('Message to the agent');
    await board(page).locator('.stopped-banner').waitFor();

    // The person marks their own step done from the keyboard: arrows pass "In progress" (another step is) without sending it; Enter sets it.
    const status = page.getByRole('combobox', { name: `Status of ${MINE}`, exact: true });
    const version = await boardVersion(page);
    await status.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    expect(await status.inputValue()).toBe('pending');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await status.inputValue()).toBe('completed');
    expect(await board(page).getByRole('alert').count()).toBe(0);
    await page.keyboard.press('Enter');
    await waitForNewVersion(page, version);
    expect(await status.inputValue()).toBe('completed');
    expect(await focused()).toBe(`Status of ${MINE}`);
  }, 60_000);

  test('stopped, at 1024×700, 1280×800 with the terminal open and 1920×1080: the plan’s steps in view, axe clean', async () => {
    const inView = () =>
      page.evaluate(() => {
        const steps = [...document.querySelectorAll('section.plan-board .plan-item')].map((item) => item.getBoundingClientRect());
        return steps.filter((rect) => rect.top >= 0 && rect.bottom <= window.innerHeight + 0.5 && rect.height > 0).length;
      });
    const found: string[] = [];
    for (const size of [
      { width: 1024, height: 700 },
      { width: 1920, height: 1080 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      await page.reload();
      await board(page).locator('.stopped-banner').waitFor();
      if (size.width === 1280) {
        await page.locator('#terminal-title').click();
        await page.locator('.terminal-panel .xterm').first().waitFor();
      }
      const steps = await inView();
      if (steps !== 5) found.push(`${size.width}×${size.height}: ${steps} of 5 steps in view`);
      await shot(`stopped-${size.width}-light`);
      await axe(`stopped ${size.width}`);
      if (screenshotsWanted()) {
        for (const look of [{ theme: 'dark', language: 'en' } as const, { theme: 'light', language: 'zh-CN' } as const]) {
          await setLook(look);
          if (size.width === 1280) await page.locator('.terminal-panel .xterm').first().waitFor();
          await shot(`stopped-${size.width}-${look.theme}-${look.language}`);
        }
        await setLook({ theme: 'light', language: 'en' });
      }
    }
    expect(found).toEqual([]);
  }, 60_000);

  test('Continue; a reload mid-turn shows the recorded cards', async () => {
    // From the message box, one Shift+Tab reaches the chat's Continue.
    await composer().focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Continue');
    await page.keyboard.press('Enter');
    await waitForRequests(9);
    expect(textOf(request(9).body.messages.at(-1))).toContain('Continue with the unfinished steps of the plan.');
    // The model is told the person put the step back.
    expect(textOf(request(9).body.messages.at(-1))).toContain(MINE);

    // A reload while the card waits: it is there again, and still answers.
    await approval().waitFor();
    await page.reload();
    await approval().waitFor();
    expect(await approval().innerText()).toContain('echo second');
    await allowWithMouse();
    await card('toolu_wait2').and(page.locator('.phase-running')).waitFor();
    // Answered: nothing goes on telling a screen reader that the agent waits for the person.
    expect(await chat().innerText()).not.toContain('The agent is waiting for your approval.');
    const before = {
      cat: await cardHead('toolu_cat'),
      pip: await cardHead('toolu_pip'),
      edit: await cardHead('toolu_edit'),
      test: await cardHead('toolu_test'),
    };
    await page.reload();
    await composer().waitFor();
    await expect.poll(() => cardHead('toolu_wait2')).toEqual({ phase: 'phase-running', head: 'Running' });
    expect({
      cat: await cardHead('toolu_cat'),
      pip: await cardHead('toolu_pip'),
      edit: await cardHead('toolu_edit'),
      test: await cardHead('toolu_test'),
    }).toEqual(before);
    await card('toolu_cat').locator('.tool-head').click();
    expect(await card('toolu_cat').locator('.command-output').innerText()).toContain('round(sum(prices), 1)');
    await card('toolu_cat').locator('.tool-head').click();

    writeFileSync(join(folder, 'go'), '');
    await idle();
    await toLatest();
    await expect.poll(() => chat().innerText()).toContain('total() now rounds to cents');
    expect(await stepTexts(page)).toEqual([READ, FIX, RUN_MINE, REPORT, MINE]);
  }, 60_000);

  test('Changes shows the edit', async () => {
    const button = page.locator('.header-actions .changes-button');
    await button.click();
    const panel = page.locator('.changes-panel');
    await panel.waitFor();
    await expect.poll(() => panel.innerText()).toContain('calc.py');
    await expect.poll(() => panel.innerText()).toContain('round(sum(prices), 2)');
    await shot('changes-1280-light');
    await axe('changes');
    await button.click();
  }, 60_000);

  test('Settings → Full auto, then Auto-approve edits: the status bar and the next calls agree', async () => {
    const dialog = await openSettings();
    await axe('settings');
    await dialog.getByRole('radio', { name: /Full auto/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.locator('.saved-note').innerText()).toContain('This session now uses “Full auto”');
    await closeSettings(dialog);
    await expect.poll(() => modeButton().innerText()).toBe('Full auto');
    await composer().fill('Run the tests once more');
    await composer().press('Enter');
    await waitForRequests(13);
    expect(toolResultText(toolResults(request(13)).find((r) => r.tool_use_id === 'toolu_auto')!)).toContain('OK');
    await idle();
    expect(await approval().count()).toBe(0);
    expect(await cardHead('toolu_auto')).toEqual({ phase: 'phase-done', head: 'exit 0' });

    // The safe direction: Auto-approve edits; the bar says so, the edit goes ahead, the command asks.
    const again = await openSettings();
    await again.getByRole('radio', { name: /Auto-approve edits/ }).check();
    await again.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => again.locator('.saved-note').innerText()).toContain('This session now uses “Auto-approve edits”');
    await closeSettings(again);
    await expect.poll(() => modeButton().innerText()).toBe('Auto-approve edits');
    await composer().fill('Make the docstring clearer');
    await composer().press('Enter');
    await approval().waitFor();
    expect(await approval().innerText()).toContain('python3 -m unittest -q');
    expect(readFileSync(join(folder, 'calc.py'), 'utf8')).toContain('rounded to whole cents');
    await allowWithMouse();
    await idle();
  }, 60_000);

  test('简体中文 and back, dark; axe found nothing serious on any screen', async () => {
    let dialog = await openSettings();
    await dialog.getByRole('radio', { name: '简体中文' }).check();
    await page.locator('html[lang="zh-CN"]').waitFor();
    await expect.poll(() => dialog.getByRole('heading', { level: 2 }).first().innerText()).not.toBe('Settings');
    await closeSettings(dialog);
    expect(await modeButton().innerText()).toBe('自动批准修改');
    // The edit sent to the agent, from the transcript (the page has reloaded since): a list in 中文, the wire text folded.
    const sent = chat().locator('.notice-plan_update').first();
    const box = (await chat().locator('.transcript-scroll').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 60 && (await sent.count()) === 0; i++) await page.mouse.wheel(0, -300);
    // Held as found: the scroll may still move the rows, and the first rendered one with them.
    const row = (await sent.elementHandle())!;
    await row.scrollIntoViewIfNeeded();
    const head = (await row.$('button.notice-head'))!;
    expect(await head.innerText()).toBe('你对计划的修改已发给智能体');
    await head.click();
    const list = (await row.waitForSelector('ul.plan-changes'))!;
    expect(await list.getAttribute('aria-label')).toBe('你的修改（已告知智能体）');
    expect(await list.innerText()).toContain(`新增“${MINE}”`);
    expect(await (await row.$('.notice-wire'))!.getAttribute('open')).toBeNull();
    expect(await row.innerText()).not.toContain('<plan-update');
    await shot('main-1280-light-zh');
    await axe('main zh');

    dialog = await openSettings();
    await dialog.getByRole('radio', { name: 'English' }).check();
    await page.locator('html[lang="en"]').waitFor();
    await dialog.getByRole('radio', { name: 'Dark' }).check();
    await page.locator('html[data-theme="dark"]').waitFor();
    await axe('settings dark');
    await closeSettings(dialog);
    expect(await modeButton().innerText()).toBe('Auto-approve edits');
    await axe('main dark');
    // Changes in dark, opened and closed from the keyboard.
    const button = page.locator('.header-actions .changes-button');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('.changes-panel').waitFor();
    await axe('changes dark');
    await shot('changes-1280-dark');
    await page.keyboard.press('Escape');
    await page.locator('.changes-panel').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Changes: 1 file changed by the agent');

    expect(axeFound).toEqual([]);
  }, 60_000);
});
