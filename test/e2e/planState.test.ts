import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  hang,
  reply,
  text,
  textOf,
  toolResults,
  toolResultText,
  toolUse,
  type ScriptedAnthropic,
  type ScriptedRequest,
  type StaticStep,
} from '../support/scriptedAnthropic';
import { addStep, board, boardVersion, row, screenshot, stepTexts, waitForNewVersion } from './support/board';
import { type PageOptions } from './support/chromium';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import { UNDO_OFFER_MS } from '../../renderer/plan/undoOffer';

/*
 * Issue 16, items 1, 4, 5, 6, 8 and 9, tried as a person would in `keel web` with the scripted
 * model: the agent undoing the person's plan edit is said and offered back; a stale rewrite is a
 * neutral "asked to redo"; one state for board, session list and status bar; Continue and
 * "interrupted" after the person's stop; refusals in the person's words, cleared on change; row
 * buttons clear of the text and Undo after a delete. The tests run in order on one session.
 */

const READ = 'Read the code';
const WRITE = 'Write the fix';
const MY_WRITE = 'Write the fix with a test';
const RUN = 'Run the tests';
const MINE = 'Update the changelog';
const REPORT = 'Write the report';

interface Gate {
  arrived: Promise<ScriptedRequest>;
  release(step: StaticStep): void;
  step: (request: ScriptedRequest) => Promise<StaticStep>;
}

/** A script step that holds the model's answer until the test releases it (the agent is "thinking"). */
function gate(): Gate {
  let arrive!: (request: ScriptedRequest) => void;
  let answer!: (step: StaticStep) => void;
  const arrived = new Promise<ScriptedRequest>((resolve) => (arrive = resolve));
  const answered = new Promise<StaticStep>((resolve) => (answer = resolve));
  return { arrived, release: (step) => answer(step), step: (request) => (arrive(request), answered) };
}

const home = tempDir('ps-home');
const root = tempDir('ps-ws');
const folder = join(root.path, 'state-project');
mkdirSync(folder);

const whileEditing = gate();
const whileLooking = gate();

let model: ScriptedAnthropic;
let keel: KeelWeb;

/** A page of the test's own (closed after it) with the board shown; `clock` installs Playwright's clock first. */
async function open(options: PageOptions & { clock?: boolean } = {}): Promise<Page> {
  const { page } = await scripted.newPage({ viewport: { width: 1400, height: 900 }, ...options });
  if (options.clock) await page.clock.install();
  await page.goto(keel.url);
  await board(page).waitFor();
  return page;
}

async function request<T>(run: (socket: Awaited<ReturnType<typeof connectKeelSocket>>) => Promise<T>): Promise<T> {
  const socket = await connectKeelSocket(keel.url);
  try {
    return await run(socket);
  } finally {
    socket.close();
  }
}

async function storedPlan(): Promise<{ version: number; items: { id: string; content: string; status: string }[] }> {
  const plan = await request((socket) => socket.request('plan.get', {}));
  if (!plan.ok) throw new Error(plan.error.message);
  return plan.value;
}

const chat = (page: Page): Locator => page.locator('section.chat-panel');
const statusBar = (page: Page): Locator => page.getByRole('contentinfo');
const sidebarState = (page: Page): Locator => page.locator('.session-row.is-current .session-state');
const statusOf = (page: Page, content: string) => page.getByRole('combobox', { name: `Status of ${content}`, exact: true });

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Whether two boxes overlap (by more than a pixel's rounding). */
function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
}

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  page: false,
  script: [
    // 1. The agent plans.
    reply(text('Here is my plan.'), toolUse('todo', { items: [{ content: READ, status: 'in_progress' }, { content: WRITE }, { content: RUN }] })),
    // 2. Held while the person edits the plan; the answer is then based on the plan before their edit.
    whileEditing.step,
    // 3. Having read the refusal (which shows the person's edit), the agent sends its own list again.
    reply(
      toolUse('todo', {
        items: [{ content: READ, status: 'completed' }, { content: WRITE }, { content: RUN, status: 'in_progress' }, { content: REPORT }],
      }),
    ),
    // 4. Held while the person looks at what the agent undid and puts it back.
    whileLooking.step,
    // 5, 6. The gate nudges twice; the task then stops with the plan unfinished.
    reply(text('Still thinking about it.')),
    reply(text('I will stop here.')),
    // 7. "Continue": the model answers without touching the plan; the task ends "done" with 0 steps done.
    reply(text('I had another look; nothing more from me.')),
    // 8, 9. A new task: a plan, then a model round the person stops.
    reply(toolUse('todo', { items: [{ content: 'Draft the notes', status: 'in_progress' }, { content: 'Send the notes' }] })),
    hang(),
    // 10, 11. Continue after the person's stop: the agent finishes.
    reply(
      toolUse('todo', {
        items: [
          { content: 'Draft the notes', status: 'completed' },
          { content: 'Send the notes', status: 'completed' },
        ],
      }),
    ),
    reply(text('Both steps are done.')),
    // 12, 13. In 简体中文: a plan, then a round the person stops.
    reply(toolUse('todo', { items: [{ content: 'Write the summary', status: 'in_progress' }, { content: 'Proofread it' }] })),
    hang(),
  ],
});

beforeAll(() => {
  ({ keel, server: model } = scripted);
});

afterEach(() => scripted.closePages());

afterAll(() => {
  home.remove();
  root.remove();
});

describe('the plan and the session state, as a person sees them (keel web + scripted model)', () => {
  test('16.5 + 16.1: a stale rewrite is "asked to redo"; the agent undoing the edit is said, in the chat and on the board, and put back in one click', async () => {
    const page = await open();
    const sent = await request((socket) => socket.request('task.send', { text: 'Fix the bug and report' }));
    expect(sent.ok).toBe(true);
    await whileEditing.arrived;
    await expect.poll(() => stepTexts(page)).toEqual([READ, WRITE, RUN]);

    // The person rewords a step, deletes one and adds one while the agent thinks.
    let version = await boardVersion(page);
    await page.getByRole('button', { name: WRITE, exact: true }).click();
    const editor = page.getByRole('textbox', { name: `Reword "${WRITE}"` });
    await editor.fill(MY_WRITE);
    await editor.press('Enter');
    version = await waitForNewVersion(page, version);
    await row(page, RUN).hover();
    await page.getByRole('button', { name: `Delete "${RUN}"` }).click();
    await waitForNewVersion(page, version);
    await addStep(page, MINE);
    expect(await stepTexts(page)).toEqual([READ, MY_WRITE, MINE]);

    // The agent's answer was written before it saw the edit: refused, and the chat says so neutrally.
    whileEditing.release(
      reply(toolUse('todo', { items: [{ content: READ, status: 'completed' }, { content: WRITE, status: 'in_progress' }, { content: RUN }] })),
    );
    const redo = chat(page).locator('.tool-card.phase-redo[data-tool="todo"]');
    await redo.waitFor({ timeout: 15_000 });
    expect(await redo.locator('.tool-summary').innerText()).toContain('based on an older plan');
    expect(await redo.innerText()).not.toContain('Failed');
    expect(await redo.locator('.chip-danger').count()).toBe(0);
    expect(await redo.locator('.tool-error').count()).toBe(0);
    // The model still reads its own words: the refusal shows the person's change.
    const refusalRead = await whileLooking.arrived;
    const earlier = model.requests.at(-2)!;
    expect(toolResults(earlier).map(toolResultText).join('\n')).toContain('Plan not changed: the person edited the plan');
    expect(refusalRead).toBeDefined();

    // The agent's accepted list dropped the added step, reworded the step back and restored the deleted one.
    const notice = chat(page).locator('.notice-plan_override');
    await notice.waitFor();
    const said = await notice.innerText();
    expect(said).toContain(`The agent removed your step “${MINE}”`);
    expect(said).toContain(`The agent changed your wording back: “${MY_WRITE}” is now “${WRITE}”`);
    expect(said).toContain(`The agent brought back the step you deleted: “${RUN}”`);
    const onBoard = board(page).locator('.board-overrides');
    expect(await onBoard.innerText()).toContain(`The agent removed your step “${MINE}”`);
    // The accepted card's summary says more than statuses: the agent added a step.
    // (The card learns it was accepted by its own event, which may land after the model's next request.)
    const accepted = chat(page).locator('.tool-card.phase-done[data-tool="todo"]').last();
    await expect.poll(() => accepted.locator('.tool-summary').innerText()).toContain('1 added');
    await page.mouse.move(1300, 850);
    await screenshot(page, 'plan-override-1400');
    expect(await accessibilityProblems(page)).toEqual([]);

    // The same notice in a narrow, dark window.
    const narrow = await open({ viewport: { width: 1024, height: 700 }, colorScheme: 'dark' });
    await board(narrow).locator('.board-overrides').waitFor();
    await narrow.mouse.move(1000, 680);
    await screenshot(narrow, 'plan-override-1024-dark');
    const box = (await board(narrow).locator('.board-overrides').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    await narrow.context().close();

    // One click on the board: the person's step is back where it stood, through a normal edit.
    version = await boardVersion(page);
    await onBoard.locator('[data-override="dropped"]').getByRole('button', { name: 'Put it back' }).click();
    version = await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toContain(MINE);
    await onBoard.locator('[data-override="dropped"]').getByText('Done').waitFor();
    // One click in the chat: their wording back.
    await notice.locator('[data-override="reworded_back"]').getByRole('button', { name: 'Use my wording' }).click();
    await waitForNewVersion(page, version);
    await expect.poll(() => stepTexts(page)).toContain(MY_WRITE);
    const stored = (await storedPlan()).items.map((item) => item.content);
    expect(stored).toContain(MINE);
    expect(stored).toContain(MY_WRITE);
    expect(stored).not.toContain(WRITE);
    await screenshot(page, 'plan-override-put-back');

    // A reload: the chat still says what the agent undid, and what is already put back shows as done.
    await page.reload();
    await notice.waitFor();
    await notice.locator('[data-override="dropped"]').getByText('Done').waitFor();
    await notice.locator('[data-override="reworded_back"]').getByText('Done').waitFor();
    expect(await notice.locator('[data-override="restored"]').getByRole('button', { name: 'Delete it again' }).isVisible()).toBe(true);
  }, 90_000);

  test('16.4: after Continue a task that ends with steps open is not "Done"; after "Mark the plan done" nothing says "unfinished"', async () => {
    const page = await open();
    whileLooking.release(reply(text('Let me think.')));
    const banner = page.getByRole('region', { name: 'Stopped with an unfinished plan' });
    await banner.waitFor({ timeout: 15_000 });
    await expect.poll(() => statusBar(page).innerText()).toContain('Stopped, plan unfinished');
    await expect.poll(() => sidebarState(page).innerText()).toBe('Plan unfinished');

    // Continue: the model answers without touching the plan; the task ends "done" with steps open.
    // The last outcome row said "stopped_unfinished" before Continue already: wait for the one after the answer.
    await banner.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(7);
    await expect
      .poll(
        () =>
          chat(page)
            .locator('.transcript-row')
            .evaluateAll((rows) => {
              const answer = rows.find((row) => row.textContent?.includes('I had another look; nothing more from me.'));
              const after = rows.filter((row) => answer && Number(row.dataset.index) > Number(answer.dataset.index));
              return (
                after
                  .findLast((row) => row.querySelector('[data-outcome]'))
                  ?.querySelector('[data-outcome]')
                  ?.getAttribute('data-outcome') ?? null
              );
            }),
        { timeout: 15_000 },
      )
      .toBe('stopped_unfinished');
    expect(textOf(model.requests[6]!.body.messages.at(-1))).toContain('Continue with the unfinished steps of the plan.');
    await expect.poll(() => statusBar(page).innerText()).toContain('Stopped, plan unfinished');
    expect(await statusBar(page).innerText()).not.toMatch(/\bDone\b/);
    await expect.poll(() => sidebarState(page).innerText()).toBe('Plan unfinished');
    await banner.waitFor();
    await screenshot(page, 'state-after-continue');

    // A reload derives the same.
    await page.reload();
    await banner.waitFor();
    await expect.poll(() => sidebarState(page).innerText()).toBe('Plan unfinished');
    await expect.poll(() => statusBar(page).innerText()).toContain('Stopped, plan unfinished');

    // Mark the plan done: the list, the status bar and the board agree.
    await banner.getByRole('button', { name: 'Mark the plan done' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(() => sidebarState(page).innerText()).toBe('Done');
    await expect.poll(() => statusBar(page).innerText()).toContain('Done');
    expect(await statusBar(page).innerText()).not.toContain('unfinished');
    await screenshot(page, 'state-marked-done');
  }, 90_000);

  test('16.8: after the person stops, Continue is offered and the step in progress shows as interrupted until work resumes', async () => {
    const page = await open({ viewport: { width: 1024, height: 700 } });
    await request((socket) => socket.request('task.send', { text: 'Draft and send the notes' }));
    await expect.poll(() => stepTexts(page), { timeout: 15_000 }).toEqual(['Draft the notes', 'Send the notes']);
    await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(9);
    await chat(page).getByRole('button', { name: /^Stop/ }).click();
    await chat(page).locator('[data-outcome="cancelled"]').waitFor({ timeout: 10_000 });

    const banner = page.getByRole('region', { name: 'You stopped the task' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('2 of 2 steps are not done');
    const drafting = row(page, 'Draft the notes');
    expect(await drafting.locator('.interrupted-badge').innerText()).toBe('Interrupted');
    // A display state only: the stored status is unchanged.
    expect((await storedPlan()).items[0]!.status).toBe('in_progress');
    expect(await statusOf(page, 'Draft the notes').inputValue()).toBe('in_progress');
    // The chat's stop row offers Continue too (once the page has heard the agent is idle: its own event).
    await expect.poll(() => chat(page).locator('[data-outcome="cancelled"]').last().getByRole('button', { name: 'Continue' }).isVisible()).toBe(true);
    await page.mouse.move(1000, 680);
    await screenshot(page, 'stopped-by-person-1024');
    expect(await accessibilityProblems(page)).toEqual([]);

    await chat(page).locator('[data-outcome="cancelled"]').last().getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => drafting.locator('.interrupted-badge').count()).toBe(0);
    await expect.poll(() => statusBar(page).innerText(), { timeout: 15_000 }).toContain('Done');
    expect(await board(page).innerText()).toContain('2 of 2 completed');
    expect(await banner.count()).toBe(0);
  }, 90_000);

  test('16.6 + 9.10: a refused edit is said in the person’s words, offers the fix in one action, and clears when the plan changes', async () => {
    const page = await open();
    await addStep(page, 'Check the logs');
    await addStep(page, 'Restart the service');
    let version = await boardVersion(page);
    await statusOf(page, 'Check the logs').selectOption('in_progress');
    version = await waitForNewVersion(page, version);

    await statusOf(page, 'Restart the service').selectOption('in_progress');
    const refusal = row(page, 'Restart the service').getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Only one step can be in progress: “Check the logs” already is.');
    expect(await refusal.innerText()).not.toContain('in_progress');
    await screenshot(page, 'refusal-person-words');

    // The offered fix: the other step pending and this one started, in one edit.
    await refusal.getByRole('button', { name: 'Make “Check the logs” pending and start this one' }).click();
    version = await waitForNewVersion(page, version);
    expect(await statusOf(page, 'Restart the service').inputValue()).toBe('in_progress');
    expect(await statusOf(page, 'Check the logs').inputValue()).toBe('pending');
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);

    // Refused again, then the plan changes elsewhere (another window, or the agent): the refusal goes.
    await statusOf(page, 'Check the logs').selectOption('in_progress');
    await row(page, 'Check the logs').getByRole('alert').waitFor();
    const current = await storedPlan();
    const edited = await request((socket) =>
      socket.request('plan.edit', { baseVersion: current.version, items: [...current.items, { content: 'Tell the team' }] }),
    );
    expect(edited.ok).toBe(true);
    await waitForNewVersion(page, version);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);

    // Refused again, then the person acts on something else: the old refusal goes too.
    await statusOf(page, 'Check the logs').selectOption('in_progress');
    await row(page, 'Check the logs').getByRole('alert').waitFor();
    version = await boardVersion(page);
    await page.getByRole('button', { name: 'Tell the team', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Reword "Tell the team"' });
    await editor.fill('Tell the team at standup');
    await editor.press('Enter');
    await waitForNewVersion(page, version);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
  }, 60_000);

  test('16.6 in 简体中文 and dark: the refusal and its fix are in Chinese', async () => {
    const updated = await request((socket) => socket.request('settings.update', { language: 'zh-CN' }));
    expect(updated.ok).toBe(true);
    try {
      const page = await open({ viewport: { width: 1024, height: 700 }, colorScheme: 'dark' });
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN');
      await page.getByRole('combobox', { name: '“Check the logs”的状态', exact: true }).selectOption('in_progress');
      const refusal = row(page, 'Check the logs').getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain('同一时间只能有一个步骤进行中：“Restart the service”已在进行中。');
      expect(await refusal.getByRole('button').innerText()).toBe('把“Restart the service”改为待办，并开始这一步');
      await page.mouse.move(1000, 680);
      await screenshot(page, 'refusal-zh-CN-dark');
      expect(await accessibilityProblems(page)).toEqual([]);
    } finally {
      await request((socket) => socket.request('settings.update', { language: 'en' }));
    }
  }, 60_000);

  test('16.9: move and delete never cover the step’s first line; a delete can be undone for a few seconds', async () => {
    let page!: Page;
    for (const viewport of [
      { width: 1400, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      // The last page runs on Playwright's clock, so that the undo offer's timeout need not be waited out.
      page = await open({ viewport, clock: viewport.width === 1024 });
      const long = row(page, 'Restart the service');
      await long.hover();
      const text = (await long.locator('.item-text').boundingBox())!;
      const firstLine = { ...text, height: Math.min(text.height, 20) };
      for (const name of ['Move "Restart the service" up', 'Move "Restart the service" down', 'Delete "Restart the service"']) {
        const button = page.getByRole('button', { name, exact: true });
        expect(await button.isVisible()).toBe(true);
        expect(overlaps((await button.boundingBox())!, firstLine)).toBe(false);
      }
      // Focus shows them too, still clear of the text.
      await page.getByRole('button', { name: 'Delete "Restart the service"' }).focus();
      expect(overlaps((await page.getByRole('button', { name: 'Delete "Restart the service"' }).boundingBox())!, firstLine)).toBe(false);
      await screenshot(page, `row-actions-${viewport.width}`);
    }

    const before = await stepTexts(page);
    let version = await boardVersion(page);
    await page.getByRole('button', { name: 'Delete "Check the logs"' }).click();
    version = await waitForNewVersion(page, version);
    const toast = board(page).locator('.deleted-toast');
    expect(await toast.innerText()).toContain('Step deleted: “Check the logs”');
    await screenshot(page, 'deleted-undo');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await waitForNewVersion(page, version);
    expect(await stepTexts(page)).toEqual(before);
    expect(await toast.count()).toBe(0);

    // Left alone, the offer goes by itself.
    version = await boardVersion(page);
    await page.getByRole('button', { name: 'Delete "Tell the team at standup"' }).click();
    await waitForNewVersion(page, version);
    await toast.waitFor();
    // Not while focus is on Undo (a keyboard user reaching for it): counted again once it leaves.
    await toast.getByRole('button', { name: 'Undo' }).focus();
    await page.clock.fastForward(UNDO_OFFER_MS * 2);
    expect(await toast.count()).toBe(1);
    await page.getByRole('button', { name: 'Delete "Check the logs"' }).focus();
    await page.clock.fastForward(UNDO_OFFER_MS);
    await toast.waitFor({ state: 'detached' });
    expect(await stepTexts(page)).not.toContain('Tell the team at standup');
  }, 90_000);

  test('简体中文 + dark: the person’s stop, the interrupted step, the override notice, the redo card and the delete undo are in Chinese', async () => {
    const updated = await request((socket) => socket.request('settings.update', { language: 'zh-CN' }));
    expect(updated.ok).toBe(true);
    try {
      const page = await open({ viewport: { width: 1024, height: 700 }, colorScheme: 'dark' });
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN');
      await request((socket) => socket.request('task.send', { text: '写摘要' }));
      await expect.poll(() => stepTexts(page), { timeout: 15_000 }).toEqual(['Write the summary', 'Proofread it']);
      await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(13);
      await request((socket) => socket.request('task.stop', {}));

      const banner = page.getByRole('region', { name: '你停止了任务' });
      await banner.waitFor({ timeout: 10_000 });
      expect(await banner.innerText()).toContain('2 个步骤中有 2 个未完成');
      expect(await row(page, 'Write the summary').locator('.interrupted-badge').innerText()).toBe('已中断');
      await expect.poll(() => chat(page).locator('[data-outcome="cancelled"]').last().getByRole('button', { name: '继续' }).isVisible()).toBe(true);
      await page.mouse.move(1000, 680);
      await screenshot(page, 'stopped-by-person-zh-CN-dark');
      expect(await accessibilityProblems(page)).toEqual([]);

      // Delete, with its undo offer, in Chinese.
      const version = await boardVersion(page);
      await row(page, 'Proofread it').hover();
      await page.getByRole('button', { name: '删除“Proofread it”' }).click();
      await waitForNewVersion(page, version);
      const toast = board(page).locator('.deleted-toast');
      expect(await toast.innerText()).toContain('已删除步骤：“Proofread it”');
      expect(await toast.getByRole('button').innerText()).toBe('撤销删除');
      await screenshot(page, 'deleted-undo-zh-CN-dark');

      // The first task's notice, further up the (virtualized) chat. This task's new plan dropped the
      // steps the person added in the refusal test, so there is a later override notice too.
      const transcript = chat(page).locator('.transcript-scroll');
      const notice = chat(page).locator('.notice-plan_override', { hasText: 'Update the changelog' });
      // Up by key, as a person would: the view stops following the end, so a row measured as it
      // renders cannot take it back to the end (and the notice out of the DOM) after the poll below.
      await transcript.focus();
      await page.keyboard.press('Home');
      await expect
        .poll(async () => {
          await transcript.evaluate((el) => (el.scrollTop = 0));
          return notice.count();
        })
        .toBe(1);
      expect(await notice.innerText()).toContain('智能体删除了你添加的步骤“Update the changelog”。');
      expect(await notice.innerText()).toContain('智能体恢复了你删除的步骤：“Run the tests”。');
      expect(await chat(page).locator('.tool-card.phase-redo').innerText()).toContain('智能体的更新基于旧版计划');
      await notice.scrollIntoViewIfNeeded();
      await screenshot(page, 'plan-override-zh-CN-dark');
    } finally {
      await request((socket) => socket.request('settings.update', { language: 'en' }));
    }
  }, 90_000);
});
