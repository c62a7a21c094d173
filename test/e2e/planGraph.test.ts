import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lastMessage, reply, text, textOf, toolUse } from '../support/scriptedAnthropic';
import { board, boardVersion, row, screenshot, waitForNewVersion } from './support/board';
import { connectKeelSocket } from './support/keelSocket';
import { tempDir } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { gate } from './support/heldAnswer';

/*
 * The plan graph on the board, in a real Chromium against `keel web` and the scripted model:
 * mid-task the person makes a step wait for another (from the keyboard, in the step's picker) and
 * the agent is told in its next request; a dependency that would close a cycle, and starting a
 * step that is blocked, are refused beside the step with the reason, and nothing changes. Then a
 * 12-step graph at 1024 and 1440 px, light and dark, English and 中文.
 */

const PARSE = 'Parse the input';
const TESTS = 'Write the tests';
const DOCS = 'Write the docs';

const home = tempDir('graph-home');
const workspace = tempDir('graph-ws');

/** Holds the model's answer until the test releases it: the agent is thinking meanwhile. */
const thinking = gate();
const plan = [
  { id: 'parse', content: PARSE, status: 'in_progress', activeForm: 'Parsing the input' },
  { id: 'tests', content: TESTS, status: 'pending' },
  { id: 'docs', content: DOCS, status: 'pending', blockedBy: ['tests'] },
];

let scripted: ScriptedWindow;
let page: Page;

const picker = (step: Locator) => step.getByRole('group');

/** What a step's row says it waits for: the line's label and the ids it shows. */
async function dependencies(step: Locator): Promise<{ label: string; ids: string[] }> {
  return { label: await step.locator('.deps-label').innerText(), ids: await step.locator('.item-deps .dep-id').allInnerTexts() };
}
const pickerButton = (content: string) => page.getByRole('button', { name: `Steps “${content}” waits for…`, exact: true });

async function setLook(look: { theme?: 'light' | 'dark'; language?: 'en' | 'zh-CN' }): Promise<void> {
  const socket = await connectKeelSocket(scripted.keel.url);
  const result = await socket.request('settings.update', look);
  socket.close();
  if (!result.ok) throw new Error(result.error.message);
}

beforeAll(async () => {
  scripted = await openScriptedWindow({
    workspace: workspace.path,
    keelHome: home.path,
    script: [
      reply(text('Planning first.'), toolUse('todo', { items: plan })),
      thinking.step,
      reply(toolUse('todo', { items: plan.map(({ id, content }) => ({ id, content, status: 'completed' })) })),
      reply(text('Parsed, tested, documented.')),
    ],
  });
  page = scripted.page;
}, 90_000);

afterAll(async () => {
  expect(scripted?.errors ?? []).toEqual([]);
  await scripted?.close();
  home.remove();
  workspace.remove();
});

describe('the plan graph on the board (keel web)', () => {
  test('shows what each step waits for, its #id, and whether it is ready or blocked', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Parse, test and document');
    await page.keyboard.press('Enter');
    await thinking.arrived;
    await board(page).locator(`[data-item-id="docs"]`).waitFor();

    const docs = row(page, DOCS);
    expect(await docs.locator('.item-id').innerText()).toBe('#docs');
    expect(await dependencies(docs)).toEqual({ label: 'Blocked by', ids: ['#tests'] });
    expect(await docs.getByRole('list', { name: `Steps “${DOCS}” waits for` }).innerText()).toContain(`${TESTS}, Pending`);
    expect(await row(page, TESTS).locator('.readiness-badge').innerText()).toBe('Ready');
    expect(await docs.locator('.readiness-badge').count()).toBe(0);
  });

  test('the person makes a step wait for another from the keyboard, and the agent is told in its next request', async () => {
    const tests = row(page, TESTS);
    const before = await boardVersion(page);
    await pickerButton(TESTS).focus();
    await page.keyboard.press('Enter');
    const options = picker(tests);
    await options.waitFor();
    // The first step is focused; Space ticks it.
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.innerText)).toMatch(new RegExp(`#parse\\s*${PARSE}`));
    await page.keyboard.press('Space');
    await waitForNewVersion(page, before);
    await expect.poll(() => dependencies(tests)).toEqual({ label: 'Blocked by', ids: ['#parse'] });
    expect(await options.getByRole('checkbox', { name: new RegExp(PARSE) }).isChecked()).toBe(true);
    await screenshot(page, 'plan-graph-picker');
    // Esc closes the picker and gives focus back to its button.
    await page.keyboard.press('Escape');
    await expect.poll(() => options.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Steps “${TESTS}” waits for…`);
  });

  test('a dependency that would close a cycle is refused beside the step with the reason; nothing changes', async () => {
    const parse = row(page, PARSE);
    const before = await boardVersion(page);
    await pickerButton(PARSE).click();
    const box = picker(parse).getByRole('checkbox', { name: new RegExp(DOCS) });
    await box.check({ force: true }).catch(() => undefined); // the stored state (unticked) comes back at once
    await parse.getByRole('alert').waitFor();
    expect(await parse.getByRole('alert').innerText()).toBe(
      'That would make steps wait for each other in a circle (#parse → #docs → #tests → #parse), so none of them could ever start.',
    );
    expect(await boardVersion(page)).toBe(before);
    expect(await box.isChecked()).toBe(false);
    expect(await parse.locator('.item-deps').count()).toBe(0);
    // Only beside the step the person changed, not beside every step of the cycle.
    expect(await board(page).getByRole('alert').count()).toBe(1);
    await screenshot(page, 'plan-graph-cycle-refused');
    await page.keyboard.press('Escape');
  });

  test('starting a step that is blocked is refused beside it with what it waits for', async () => {
    const docs = row(page, DOCS);
    const before = await boardVersion(page);
    await docs.getByRole('combobox', { name: `Status of ${DOCS}`, exact: true }).selectOption('in_progress');
    await docs.getByRole('alert').waitFor();
    // #parse is in progress too: the board says both, and offers to swap which one is.
    expect(await docs.getByRole('alert').locator('.error-message').allInnerTexts()).toEqual([
      `“${DOCS}” waits for “${TESTS}”, which is not completed yet. Complete that step first, or remove the dependency.`,
      `Only one step can be in progress: “${PARSE}” already is.`,
    ]);
    expect(await boardVersion(page)).toBe(before);
    expect(await docs.getByRole('combobox', { name: `Status of ${DOCS}`, exact: true }).inputValue()).toBe('pending');
  });

  test('the agent hears of the dependency, not of the refused edits, and finishes the graph', async () => {
    thinking.release(reply(toolUse('list_files', { pattern: '*' })));
    await expect.poll(() => scripted.server.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const told = textOf(lastMessage(scripted.server.requests[2]!));
    expect(told).toContain('<plan-update source="user">');
    expect(told).toContain('- "Write the tests" (#tests) now waits for #parse');
    expect(told).toContain('[ ] #tests Write the tests (blocked by #parse)');
    expect(told).not.toContain('#docs → ');
    await page.locator('[data-outcome="done"]').waitFor({ timeout: 15_000 });
    // The finished plan stays on the board, dependencies and all.
    expect(await dependencies(row(page, DOCS))).toEqual({ label: 'After', ids: ['#tests'] });
  });

  test('a 12-step graph stays readable at 1024 and 1440 px, light and dark, English and 中文', { timeout: 120_000 }, async () => {
    const steps: [string, string, string, string[]][] = [
      ['read', 'Read the parser and its tests', 'completed', []],
      ['lex', 'Split the lexer out of parse.ts', 'completed', ['read']],
      ['parse', 'Rewrite the expression parser on the new lexer', 'in_progress', ['lex']],
      ['errors', 'Report parse errors with line and column', 'pending', ['parse']],
      ['tests', 'Write the tests for precedence and errors', 'pending', ['parse', 'errors']],
      ['bench', 'Benchmark the parser against the old one', 'pending', ['parse']],
      ['cli', 'Add a --check flag to the CLI', 'pending', ['errors']],
      ['docs', 'Document the grammar in docs/grammar.md', 'pending', ['parse']],
      ['changelog', 'Update the changelog', 'pending', []],
      ['lint', 'Run the linter and fix what it finds', 'pending', ['tests', 'cli']],
      ['ci', 'Run the whole test suite', 'pending', ['lint', 'bench']],
      ['report', 'Report what changed and the bench figures', 'pending', ['ci', 'docs', 'changelog']],
    ];
    const socket = await connectKeelSocket(scripted.keel.url);
    const current = await socket.request('plan.get', {});
    if (!current.ok) throw new Error(current.error.message);
    const before = current.value.version;
    const stored = await socket.request('plan.edit', {
      baseVersion: before,
      items: steps.map(([id, content, status, blockedBy]) => ({ id, content, status, blockedBy })),
    });
    socket.close();
    if (!stored.ok) throw new Error(stored.error.message);
    await waitForNewVersion(page, before);

    for (const look of [
      { theme: 'light', language: 'en' },
      { theme: 'dark', language: 'en' },
      { theme: 'light', language: 'zh-CN' },
      { theme: 'dark', language: 'zh-CN' },
    ] as const) {
      // Settings changed elsewhere reach a window when it loads.
      await setLook(look);
      await page.reload();
      await board(page).waitFor();
      await page.locator(`html[lang="${look.language}"][data-theme="${look.theme}"]`).waitFor();
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        const list = board(page);
        // Nothing runs out of the board sideways; each row's dependencies fit on its own line.
        expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        const overflowing = await list.evaluate(
          (el) =>
            [...el.querySelectorAll('.plan-item')].filter((item) => {
              const box = item.getBoundingClientRect();
              const deps = item.querySelector('.item-deps')?.getBoundingClientRect();
              return box.right > el.getBoundingClientRect().right + 0.5 || (deps !== undefined && deps.height > 24);
            }).length,
        );
        expect(overflowing).toBe(0);
        await screenshot(page, `plan-graph-12-${width}-${look.theme}-${look.language}`);
      }
    }
    await setLook({ language: 'en' });
  });
});
