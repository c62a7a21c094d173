import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { writeLongSession } from '../../bench/chatStreaming';
import { board, screenshot, stepTexts } from './support/board';
import { TestPages } from './support/testPages';
import { connectChromium, newPage, type PageOptions } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { lastMessage, reply, startScriptedAnthropic, text, textOf, toolUse, type Step } from '../support/scriptedAnthropic';

/*
 * The chat panel in `keel web`, in a real Chromium against a real `keel web` child and the
 * scripted model: markdown and code, the composer, the error cards, a stop with an unfinished
 * plan, a 1,000-message session, and the panel in 简体中文 and dark.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
/** Pages opened by a test: closed after it, and none may have logged an error. */
const pages = new TestPages();

beforeAll(async () => {
  browser = await connectChromium();
});

afterEach(async () => {
  expect(await pages.takeErrors()).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
});

/** A folder and KEEL_HOME of its own, with `keel web` on the scripted model. */
async function setUp(
  script: Step[],
  settings: object = {},
  options: { apiKey?: string; keelKey?: string; prepare?: (home: string, folder: string) => void } = {},
) {
  const home = tempDir('chat-home');
  const root = tempDir('chat-ws');
  const folder = join(root.path, 'chat-project');
  mkdirSync(folder);
  writeFileSync(join(home.path, 'settings.json'), JSON.stringify(settings));
  options.prepare?.(home.path, folder);
  const server = await startScriptedAnthropic({ apiKey: options.apiKey ?? 'k', script });
  const keel = await startKeelWeb({
    workspace: folder,
    keelHome: home.path,
    env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: options.keelKey ?? 'k' },
  });
  return {
    home,
    folder,
    server,
    keel,
    async close() {
      await pages.close();
      await keel.stop();
      await server.close();
      home.remove();
      root.remove();
    },
  };
}

async function open(keel: KeelWeb, options: PageOptions = {}): Promise<Page> {
  const page = await newPage(browser, options);
  pages.track(page);
  await page.page.goto(keel.url);
  await page.page.locator('section.chat-panel textarea').waitFor();
  return page.page;
}

const chat = (page: Page): Locator => page.locator('section.chat-panel');
const composer = (page: Page): Locator => page.getByRole('textbox', { name: 'Message to the agent' });

async function send(page: Page, message: string): Promise<void> {
  await composer(page).fill(message);
  await composer(page).press('Enter');
}

/** Serious and critical accessibility problems axe-core finds in the chat panel. */
async function axeViolations(page: Page): Promise<unknown[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Element): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document.querySelector('section.chat-panel')!);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

const MARKDOWN = [
  '## How it works',
  '',
  'The function below returns a **greeting**; call it with `greet("Ada")`. See [the docs](https://example.com/docs).',
  '',
  '```ts',
  'export function greet(name: string): string {',
  '  const greeting = `Hello, ${name}!`; // a template string',
  '  return greeting;',
  '}',
  '```',
  '',
  '- first point',
  '- second point',
  '',
  '<script>window.__pwned = 1</script><img src="https://example.com/x.png" onerror="window.__pwned = 2">',
  '',
  'That is all.',
].join('\n');

const LONG_LINE = 'This pasted line is long enough to wrap once or twice in the composer, as a log or a stack trace would. ';
const PASTED = Array.from({ length: 300 }, (_, i) => `${i + 1}: ${LONG_LINE}`).join('\n');

const PLAN_A = [
  { content: 'Draft the changelog', status: 'in_progress' },
  { content: 'Check the links', status: 'pending' },
];
const PLAN_B = [{ content: 'Tidy the imports', status: 'in_progress' }];

describe('the chat (keel web)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;
  let pastedLength = 0;

  beforeAll(async () => {
    env = await setUp([
      // Markdown with a code block, streamed.
      { ...reply(MARKDOWN), chunkDelayMs: 15 },
      // The long pasted message reaches the model whole.
      (request) => {
        pastedLength = textOf(lastMessage(request)).length;
        return reply('Got the whole log.');
      },
      // A plan left open: two nudges, then the task stops with an unfinished plan.
      reply(text('Planning.'), toolUse('todo', { items: PLAN_A })),
      reply('I think that is it.'),
      reply('Really done.'),
      reply('Nothing more to do.'),
      // The same with another plan; then "Continue" finishes it.
      reply(toolUse('todo', { items: PLAN_B })),
      reply('Done?'),
      reply('Done.'),
      reply('Stopping.'),
      (request) => {
        expect(textOf(lastMessage(request))).toContain('Continue with the unfinished steps of the plan.');
        return reply(toolUse('todo', { items: [{ content: 'Tidy the imports', status: 'completed' }] }));
      },
      reply('All tidy now.'),
    ]);
  });

  afterAll(async () => {
    expect(env.server.errors).toEqual([]);
    await env.close();
  });

  test('shows what Keel does and example tasks; an example fills the composer', async () => {
    const page = await open(env.keel);
    await chat(page).getByRole('heading', { name: 'What should we work on?' }).waitFor();
    await chat(page)
      .getByRole('button', { name: /^Write hello\.py/ })
      .click();
    await expect.poll(() => composer(page).inputValue()).toContain('Write hello.py');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await screenshot(page, 'chat-empty');
  });

  test('renders markdown with a highlighted code block and a copy button; raw HTML is sanitized', async () => {
    const page = await open(env.keel);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await send(page, 'Show me a greeting function');
    await chat(page).locator('[data-outcome="done"]').waitFor({ timeout: 15_000 });

    const answer = chat(page).locator('.chat-assistant').last();
    expect(await answer.getByRole('heading', { name: 'How it works' }).count()).toBe(1);
    expect(await answer.locator('strong').first().innerText()).toBe('greeting');
    const code = answer.locator('.md-code[data-lang="ts"]');
    expect(await code.locator('.hljs-keyword').count()).toBeGreaterThan(2);
    expect(await code.locator('.hljs-string, .hljs-subst').count()).toBeGreaterThan(0);
    expect(await code.locator('.hljs-comment').innerText()).toBe('// a template string');
    const link = answer.getByRole('link', { name: 'the docs' });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // Raw HTML is shown as text, never parsed: no script, no handler, no remote image.
    expect(await answer.innerText()).toContain('<script>window.__pwned = 1</script>');
    expect(await chat(page).locator('script, img, [onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await answer.innerText()).toContain('That is all.');

    await code.getByRole('button', { name: 'Copy code' }).click();
    await code.getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('export function greet(name: string): string {');
    await screenshot(page, 'chat-markdown');
  });

  test('composer: Shift+Enter breaks the line, a long paste is kept whole and scrolls, ↑ recalls', async () => {
    const page = await open(env.keel);
    const box = composer(page);
    await box.click();
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await box.inputValue()).toBe('line one\nline two');
    await box.fill('');

    // A paste of 300 long lines: all of it is kept; the box grows to its limit, then scrolls.
    await page.keyboard.insertText(PASTED);
    expect(await box.inputValue()).toBe(PASTED);
    const size = await box.evaluate((el: HTMLTextAreaElement) => ({
      client: el.clientHeight,
      scroll: el.scrollHeight,
      overflow: getComputedStyle(el).overflowY,
    }));
    expect(size.client).toBeLessThanOrEqual(242);
    expect(size.client).toBeGreaterThan(150);
    expect(size.scroll).toBeGreaterThan(size.client * 5);
    expect(size.overflow).toBe('auto');
    await box.press('Enter');
    await chat(page).getByText('Got the whole log.').waitFor({ timeout: 15_000 });
    // All of it (the composer trims the white space at its ends).
    expect(pastedLength).toBe(PASTED.trim().length);
    const message = chat(page).locator('.chat-user').filter({ hasText: '1: This pasted line' });
    await message.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => message.innerText()).toContain('300: This pasted line');

    // ↑ at the first line brings back earlier messages, ↓ goes forward again.
    await box.click();
    await box.press('ArrowUp');
    expect(await box.inputValue()).toBe(PASTED.trim());
    await box.press('ArrowUp');
    expect(await box.inputValue()).toBe('Show me a greeting function');
    await box.press('ArrowDown');
    expect(await box.inputValue()).toBe(PASTED.trim());
    await box.press('ArrowDown');
    expect(await box.inputValue()).toBe('');
  });

  test('a task stopped with an unfinished plan says so; "Mark the plan done" completes it on the board', async () => {
    const page = await open(env.keel);
    await send(page, 'Prepare the release notes');
    const card = chat(page).locator('[data-outcome="stopped_unfinished"]');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.innerText()).toContain('Stopped with an unfinished plan');
    expect(await card.innerText()).toContain('2 steps not done');
    expect(await card.innerText()).toContain('Check the links');
    expect(await chat(page).getByText('Keel asked the agent to finish the open steps of its plan').count()).toBe(2);
    await screenshot(page, 'chat-stopped-unfinished');
    expect(await axeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Mark the plan done' }).click();
    await expect.poll(() => card.innerText()).toContain('Every step of the plan is now marked done.');
    await board(page).waitFor();
    expect(await stepTexts(page)).toEqual(['Draft the changelog', 'Check the links']);
    await expect
      .poll(() => page.locator('.plan-list select').evaluateAll((els) => els.map((el) => (el as HTMLSelectElement).value)))
      .toEqual(['completed', 'completed']);
  });

  test('"Continue" sends the agent back to the unfinished steps', async () => {
    const page = await open(env.keel);
    await send(page, 'Tidy the code');
    await chat(page).getByText('The agent ended its turn with 1 step not done:').waitFor({ timeout: 20_000 });
    // Only the latest stop offers the actions (the rows are virtualized: count the buttons).
    const card = chat(page).locator('[data-outcome="stopped_unfinished"]').last();
    expect(await card.innerText()).toContain('Tidy the imports');
    // Offered once the page has heard the agent is idle (its own event, after the outcome row).
    await expect.poll(() => chat(page).getByRole('button', { name: 'Continue' }).count()).toBe(1);
    await card.getByRole('button', { name: 'Continue' }).click();
    await chat(page).getByText('All tidy now.').waitFor({ timeout: 15_000 });
    await expect.poll(() => chat(page).locator('[data-outcome]').last().getAttribute('data-outcome')).toBe('done');
    expect(await chat(page).locator('.chat-user').last().innerText()).toContain('Continue with the unfinished steps of the plan.');
    expect(await chat(page).getByRole('button', { name: 'Continue' }).count()).toBe(0);
    expect(env.server.remaining).toBe(0);
  });
});

describe('tool cards (keel web)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;
  const NOTES = 'alpha\nbeta\ngamma\n';

  beforeAll(async () => {
    env = await setUp(
      [
        reply(toolUse('todo', { items: [{ content: 'Read the notes', status: 'in_progress' }, { content: 'Fix the typo' }, { content: 'Check the result' }] })),
        reply(toolUse('read_file', { path: 'notes.txt' }), toolUse('search_text', { pattern: 'a$' }), toolUse('list_files', { pattern: '*.txt' })),
        reply(
          toolUse('edit_file', { path: 'notes.txt', old_text: 'beta', new_text: 'BETA' }),
          toolUse('write_file', { path: 'out/report.md', content: '# Report\n\nAll fine.\n' }),
        ),
        reply(toolUse('bash', { command: 'printf "checking\\n"; grep -c zeta notes.txt' })),
        reply(
          toolUse('todo', {
            items: [
              { content: 'Read the notes', status: 'completed' },
              { content: 'Fix the typo', status: 'completed' },
              { content: 'Check the result', status: 'completed' },
            ],
          }),
        ),
        reply('All three steps are done.'),
      ],
      { approvalMode: 'full_auto' },
      { prepare: (_home, folder) => writeFileSync(join(folder, 'notes.txt'), NOTES) },
    );
  });

  afterAll(async () => {
    expect(env.server.errors).toEqual([]);
    await env.close();
  });

  test('each tool says what it did in one line and opens to the details', async () => {
    const page = await open(env.keel);
    await send(page, 'Fix the typo in notes.txt');
    await chat(page).getByText('All three steps are done.').waitFor({ timeout: 20_000 });
    const card = (tool: string) => chat(page).locator(`.tool-card[data-tool="${tool}"]`);
    const openCard = async (locator: Locator) => {
      await locator.locator('.tool-head').click();
      await locator.locator('.tool-body').waitFor();
    };

    expect(await card('read_file').locator('.tool-summary').innerText()).toBe('notes.txt');
    expect(await card('read_file').locator('.tool-meta').innerText()).toBe('lines 1–3');
    expect(await card('search_text').locator('.tool-meta').innerText()).toBe('3 matches');
    expect(await card('list_files').locator('.tool-meta').innerText()).toBe('1 file');
    expect(await card('edit_file').locator('.tool-meta').innerText()).toContain('+1 −1');
    expect(await card('write_file').locator('.tool-summary').innerText()).toBe('out/report.md');
    expect(await card('write_file').locator('.tool-meta').innerText()).toContain('+3 −0');
    // A command that exits 1 is an answer, not a failure of the tool: its exit code says so.
    expect(await card('bash').locator('.tool-meta').innerText()).toContain('exit 1');

    await openCard(card('edit_file'));
    expect(await card('edit_file').locator('.diff-del').innerText()).toContain('beta');
    expect(await card('edit_file').locator('.diff-add').innerText()).toContain('BETA');
    await openCard(card('read_file'));
    expect(await card('read_file').locator('.read-table').innerText()).toContain('gamma');
    await openCard(card('bash'));
    expect(await card('bash').locator('.command-output').innerText()).toContain('checking');
    expect(await card('bash').innerText()).toContain('Exited with code 1');
    const todos = card('todo');
    await expect.poll(() => todos.count()).toBe(2);
    await openCard(todos.last());
    expect(await todos.last().locator('.plan-changes').innerText()).toContain('“Read the notes”: in progress → completed');
    await screenshot(page, 'chat-tool-cards');
    expect(await axeViolations(page)).toEqual([]);
    await card('edit_file').scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-tool-cards-diff');
  });
});

describe('error cards (keel web)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    // The model's server wants another key: every request is refused with 401.
    env = await setUp([], {}, { apiKey: 'the-right-key', keelKey: 'a-wrong-key' });
  });

  afterAll(async () => {
    await env.close();
  });

  test('a 401 ends the task with a card that says what to do, opens the settings and offers Try again', async () => {
    const page = await open(env.keel);
    await send(page, 'Summarise the README');
    const card = chat(page).locator('[data-outcome="error"]');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getAttribute('data-error-kind')).toBe('auth');
    expect(await card.innerText()).toContain('The API key was refused');
    expect(await card.innerText()).toContain('Check the API key in Settings');
    expect(await card.innerText()).toContain('(401)');
    expect(await card.innerText()).not.toContain('a-wrong-key');
    // Once the key is fixed in Settings, the same request may go through.
    expect(await card.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await screenshot(page, 'chat-error-card');
    expect(await axeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Open settings' }).click();
    await page.getByRole('dialog').waitFor();
  });
});

describe('a 1,000-message session (keel web)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;
  let lastText = '';
  /** Set once the test has watched the stream: the rest of the answer may then come quickly. */
  let watched = false;
  const STREAMED = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long answer that keeps the transcript growing while the person watches.`).join(
    '\n\n',
  );

  beforeAll(async () => {
    env = await setUp(
      [{ ...reply(STREAMED), chunkDelayMs: () => (watched ? 2 : 25) }],
      {},
      { prepare: (home, folder) => (lastText = writeLongSession(home, folder).lastText) },
    );
  });

  afterAll(async () => {
    await env.close();
  });

  test('opens at its end with few DOM nodes; "Jump to latest" after scrolling up; stays at the end while an answer streams', async () => {
    const page = await open(env.keel);
    const last = chat(page).locator('.transcript-row').filter({ hasText: lastText });
    await last.waitFor({ timeout: 15_000 });
    await expect.poll(() => last.isVisible()).toBe(true);
    const nodes = await page.evaluate(() => document.querySelector('section.chat-panel')!.getElementsByTagName('*').length);
    expect(nodes).toBeLessThan(2_000);
    expect(await chat(page).locator('.transcript-row').count()).toBeLessThan(60);

    // Scrolling up shows "Jump to latest"; it brings the end back.
    const scroller = chat(page).locator('.transcript-scroll');
    await scroller.hover();
    await page.mouse.wheel(0, -3_000);
    const jump = chat(page).getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    // The wheel scrolls smoothly: "Jump to latest" shows before the view has left the last row.
    await expect.poll(() => last.count()).toBe(0);
    await jump.click();
    await last.waitFor();
    await expect.poll(() => jump.count()).toBe(0);

    // A streaming answer keeps the view at its end...
    await send(page, 'Write a long answer');
    const streaming = chat(page).locator('.chat-assistant[data-streaming="true"]');
    await streaming.waitFor({ timeout: 10_000 });
    const distanceFromEnd = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    for (let i = 0; i < 5; i++) {
      await page.waitForTimeout(150);
      expect(await distanceFromEnd()).toBeLessThan(30);
    }
    // ...until the person scrolls up: then it stays where they are.
    await scroller.hover();
    await page.mouse.wheel(0, -600);
    await jump.waitFor();
    // Where the person is once the (smooth) wheel scroll has come to rest: three frames without a move.
    const top = await scroller.evaluate(
      (el) =>
        new Promise<number>((resolve) => {
          let last = el.scrollTop;
          let still = 0;
          const frame = () => {
            if (el.scrollTop !== last) [last, still] = [el.scrollTop, 0];
            else if (++still === 3) return resolve(last);
            requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        }),
    );
    await page.waitForTimeout(400);
    expect(Math.abs((await scroller.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(2);
    // "Jump to latest" follows the end again, to the end of the answer.
    await jump.click();
    watched = true;
    await expect.poll(() => chat(page).locator('.chat-assistant').last().innerText(), { timeout: 15_000 }).toContain('Line 40 of a long answer');
    await expect.poll(() => chat(page).locator('[data-outcome]').last().textContent()).toBe('Done');
    await expect.poll(distanceFromEnd).toBeLessThan(30);
    expect(await jump.count()).toBe(0);
  });
});

describe('the chat in 简体中文 and dark (keel web)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;

  beforeAll(async () => {
    env = await setUp([reply(text('好的，我先运行一个命令。'), toolUse('bash', { command: 'echo 你好' })), reply('完成了：命令输出了“你好”。')], {
      language: 'zh-CN',
      approvalMode: 'ask',
    });
  });

  afterAll(async () => {
    await env.close();
  });

  test('every string of the chat is in Chinese, and the dark theme reads well', async () => {
    const page = await open(env.keel, { colorScheme: 'dark' });
    const box = page.getByRole('textbox', { name: '发给智能体的消息' });
    await chat(page).getByRole('heading', { name: '今天要做什么？' }).waitFor();
    await box.fill('运行 echo 你好');
    await box.press('Enter');
    const card = chat(page).locator('.approval-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByRole('heading').innerText()).toBe('运行这条命令？');
    expect(await card.getByRole('button', { name: /本会话内允许/ }).innerText()).toContain('echo 命令');
    await screenshot(page, 'chat-zh-CN-dark-approval');
    expect(await axeViolations(page)).toEqual([]);
    await card.getByRole('button', { name: '允许一次' }).click();
    await chat(page).locator('[data-outcome="done"]').waitFor({ timeout: 15_000 });
    const command = chat(page).locator('.tool-card[data-tool="bash"]');
    expect(await command.locator('.tool-label').innerText()).toBe('命令');
    expect(await command.locator('.tool-meta').innerText()).toContain('退出码 0');
    await command.locator('.tool-head').click();
    expect(await command.locator('.command-output').innerText()).toContain('你好');
    expect(await chat(page).locator('[data-outcome="done"]').innerText()).toBe('已完成');
    await screenshot(page, 'chat-zh-CN-dark');
    expect(await axeViolations(page)).toEqual([]);
  });
});
