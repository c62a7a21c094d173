import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { addStep, board, boardVersion, screenshot, stepTexts, waitForNewVersion } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import {
  lastMessage,
  reply,
  startScriptedAnthropic,
  text,
  textOf,
  toolResults,
  toolResultText,
  toolUse,
  type ScriptedAnthropic,
  type ScriptedRequest,
  type StaticStep,
} from '../support/scriptedAnthropic';

/*
 * A person's whole task in `keel web`, in a real Chromium against a real `keel web` child and the
 * scripted model: they type a task, watch it stream and the plan fill in, approve a command, deny
 * a write with a reason, queue a message and edit the plan while the agent works, stop it (button
 * and Esc), then restart `keel web` and find it all again. The tests run in order and share one
 * session; each step's model request is checked for what the person did.
 */

const TASK = 'Write hello.py and run it';
const WRITE = 'Write hello.py';
const RUN = 'Run it and check the output';
const REPORT = 'Report what was done';
const ADDED = 'Add a test for hello.py';
const DENY_REASON = 'Put the greeting in a main() function';
const QUEUED = 'Also print the Python version, please';
const ECHO = 'echo hello-from-keel';
const NOT_SENT = 'And then list the folder';

const home = tempDir('task-home');
const root = tempDir('task-ws');
const folder = join(root.path, 'hello-project');
mkdirSync(folder);
writeFileSync(join(folder, 'README.md'), '# hello\n');
// Ask before commands and file changes, so the approval cards show.
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

interface Gate {
  /** Resolves when the model request arrived; the answer waits for `release`. */
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
  return {
    arrived,
    release: (step) => answer(step),
    step: (request) => {
      arrive(request);
      return answered;
    },
  };
}

const planItems = (statuses: [string, string, string]) => [
  { content: WRITE, status: statuses[0], activeForm: 'Writing hello.py' },
  { content: RUN, status: statuses[1] },
  { content: REPORT, status: statuses[2] },
];

const streamedIntro =
  'I will start with a plan, then write the file and run it. ' +
  'This first answer streams slowly, in small pieces, so the person can watch it arrive word by word ' +
  'before the plan appears on the board next to the chat.';

const afterQueue = gate();
const afterPlanEdit = gate();

let server: ScriptedAnthropic;
let keel: KeelWeb;
let browser: Browser;
let page: Page;
let errors: string[] = [];

const chat = (p: Page = page): Locator => p.locator('section.chat-panel');
const composer = (p: Page = page): Locator => p.getByRole('textbox', { name: 'Message to the agent' });
const toolCard = (p: Page, tool: string): Locator => chat(p).locator(`.tool-card[data-tool="${tool}"]`);
const approvalCard = (p: Page = page): Locator => chat(p).locator('.approval-card');

/** Opens a card's details (a no-op when they show already). */
async function expand(card: Locator): Promise<void> {
  const head = card.locator('.tool-head');
  if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
  await card.locator('.tool-body').waitFor();
}

/**
 * Waits until the rows in the DOM cover the part of the (virtualized) transcript in view: the
 * rows have caught up with a scroll. The transcript keeps 16px above its first row and below its last.
 */
async function rowsCoverView(transcript: Locator): Promise<void> {
  const scroller = await transcript.elementHandle();
  await transcript.page().waitForFunction(
    (el) => {
      const view = el!.getBoundingClientRect();
      const inner = el!.firstElementChild!.getBoundingClientRect();
      const rows = [...el!.querySelectorAll('.transcript-row')].map((row) => row.getBoundingClientRect());
      if (rows.length === 0) return false;
      const top = Math.max(view.top, inner.top + 16);
      const bottom = Math.min(view.bottom, inner.bottom - 16);
      return Math.min(...rows.map((row) => row.top)) <= top + 4 && Math.max(...rows.map((row) => row.bottom)) >= bottom - 4;
    },
    scroller,
    { timeout: 10_000 },
  );
}

async function openPage(): Promise<Page> {
  const opened = await newPage(browser);
  errors = opened.errors;
  await opened.page.goto(keel.url);
  await composer(opened.page).waitFor();
  return opened.page;
}

function startKeel(): Promise<KeelWeb> {
  return startKeelWeb({ workspace: folder, keelHome: home.path, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' } });
}

beforeAll(async () => {
  server = await startScriptedAnthropic({
    apiKey: 'k',
    script: [
      // 1. The task: a slowly streamed answer, then the plan.
      { ...reply(text(streamedIntro), toolUse('todo', { items: planItems(['in_progress', 'pending', 'pending']) })), chunkDelayMs: 60 },
      // 2. A command that needs the person's approval.
      reply(text('First, a quick check that commands run here.'), toolUse('bash', { command: ECHO })),
      // 3. A write the person will deny.
      reply(toolUse('write_file', { path: 'hello.py', content: 'print("Hello!")\n' })),
      // 4. Thinking (held) while the person queues a message.
      afterQueue.step,
      // 5. Thinking (held) while the person edits the plan.
      afterPlanEdit.step,
      // 6. A long command, stopped with the Stop button.
      reply(toolUse('bash', { command: 'sleep 30' })),
      // 7. The next task: a long command again (allowed for the session now), stopped with Esc.
      reply(toolUse('bash', { command: 'sleep 31' })),
    ],
  });
  keel = await startKeel();
  browser = await connectChromium();
  page = await openPage();
});

afterEach(() => {
  // No script error or CSP violation in the page, and the script itself never went wrong.
  expect(errors).toEqual([]);
  expect(server.errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  await server?.close();
  home.remove();
  root.remove();
});

describe("a person's whole task (keel web)", () => {
  test('types a task: the answer streams, the plan fills in', async () => {
    await chat().getByText('What should we work on?').waitFor();
    await composer().fill(TASK);
    await composer().press('Enter');
    expect(await composer().inputValue()).toBe('');

    // The person's message, then the answer arriving piece by piece.
    await chat().locator('.chat-user').filter({ hasText: TASK }).waitFor();
    const streaming = chat().locator('.chat-assistant[data-streaming="true"]');
    await streaming.waitFor();
    const early = await streaming.innerText();
    await expect.poll(async () => (await streaming.count()) === 0 || (await streaming.innerText()).length > early.length + 20).toBe(true);
    expect(early.length).toBeLessThan(streamedIntro.length);
    await expect.poll(() => chat().getByRole('button', { name: /^Stop/ }).isVisible()).toBe(true);
    await screenshot(page, 'chat-streaming');

    // The plan arrives on the board, and as a card in the chat.
    await board(page).waitFor();
    await waitForNewVersion(page, 0, 15_000);
    expect(await stepTexts(page)).toEqual([WRITE, RUN, REPORT]);
    await expect.poll(() => chat().locator('.chat-assistant').first().innerText()).toContain('board next to the chat');
    const todo = toolCard(page, 'todo');
    await todo.waitFor();
    expect(await todo.locator('.tool-summary').innerText()).toBe('3 steps, 0 done');
  });

  test('approves a command: the card shows exactly what runs, focus moves to it, the output shows in the card', async () => {
    const card = approvalCard();
    await card.waitFor();
    expect(await card.locator('.approval-command').innerText()).toContain(ECHO);
    expect(await card.getByRole('button', { name: /Allow for this session/ }).innerText()).toContain('every echo command from now on');
    // Focus moved to the card (not onto a button a stray Enter would press).
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('approval-card'))).toBe(true);
    expect(await toolCard(page, 'bash').innerText()).toContain('Waiting for you');
    await screenshot(page, 'chat-approval-command');

    // Keyboard: Tab from the card reaches "Allow once"; Enter presses it.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });

    const command = toolCard(page, 'bash').first();
    await expect.poll(() => command.locator('.tool-meta').innerText()).toContain('exit 0');
    await expand(command);
    expect(await command.locator('.command-output').innerText()).toContain('hello-from-keel');
    expect(await command.innerText()).toContain('Allowed once');
    expect(await command.innerText()).toContain('Exited with code 0');
  });

  test('denies a write with a reason: the card shows the diff, the model gets the reason', async () => {
    const card = approvalCard();
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toBe('Make this change?');
    expect(await card.locator('.approval-path').innerText()).toBe('hello.py');
    const added = card.locator('.diff-add');
    expect(await added.count()).toBe(1);
    expect(await added.innerText()).toContain('print("Hello!")');
    expect(await card.getByRole('button', { name: /Allow for this session/ }).innerText()).toContain('every file change in this folder from now on');
    await card.getByRole('textbox', { name: /Reason for denying/ }).fill(DENY_REASON);
    await screenshot(page, 'chat-approval-diff');
    await card.getByRole('button', { name: 'Deny' }).click();
    await card.waitFor({ state: 'detached' });

    // The model's next request carries the denial and the person's reason.
    const request = await afterQueue.arrived;
    const result = toolResults(request).map(toolResultText).join('\n');
    expect(result).toContain('The person denied this write_file call');
    expect(result).toContain(DENY_REASON);
    const write = toolCard(page, 'write_file');
    // The card learns of the denial by its own event, which may land after the model's next request.
    await expect.poll(() => write.locator('.tool-meta').innerText()).toContain('Denied');
    await expand(write);
    expect(await write.locator('.diff-add').innerText()).toContain('print("Hello!")');
  });

  test('queues a message while the agent works: shown as queued, then taken, and the model gets it', async () => {
    // The agent is thinking (its answer is held): the composer stays open.
    expect(await composer().isEnabled()).toBe(true);
    await composer().fill(QUEUED);
    await chat().getByRole('button', { name: 'Queue' }).click();
    const queued = chat().locator('.chat-user').filter({ hasText: QUEUED });
    await queued.waitFor();
    await expect.poll(() => queued.getAttribute('data-message-state')).toBe('queued');
    expect(await queued.innerText()).toContain('Queued');
    await screenshot(page, 'chat-queued-message');

    // The agent takes it at its next step: a read-only call, then the next request.
    afterQueue.release(reply(toolUse('list_files', { pattern: '*.md' })));
    const request = await afterPlanEdit.arrived;
    expect(textOf(lastMessage(request))).toContain(QUEUED);
    await expect.poll(() => queued.getAttribute('data-message-state')).toBe('sent');
    expect(await queued.innerText()).not.toContain('Queued');
    // The card learns of its result by its own event, which may land after the model's next request.
    const list = toolCard(page, 'list_files');
    await expect.poll(() => list.locator('.tool-meta').innerText()).toContain('1 file');
  });

  test('edits the plan mid-task on the board: the model is told at its next step', async () => {
    // The agent is thinking again; the person ticks off a step and adds one.
    const before = await boardVersion(page);
    await page.getByRole('combobox', { name: `Status of ${WRITE}`, exact: true }).selectOption('completed');
    await waitForNewVersion(page, before);
    await addStep(page, ADDED);
    expect(await stepTexts(page)).toEqual([WRITE, RUN, REPORT, ADDED]);

    afterPlanEdit.release(reply(text('Noted your changes to the plan.'), toolUse('list_files', { pattern: '*.py' })));
    // Step 6 (sleep) answers the request that carries the plan update.
    await expect.poll(() => server.requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    const update = textOf(lastMessage(server.requests[5]!));
    expect(update).toContain('<plan-update source="user">');
    expect(update).toContain(ADDED);
    expect(update).toMatch(/Write hello\.py.*completed/);
    // The chat says the edit went to the agent.
    await chat().getByText('Your plan edit was sent to the agent').waitFor();
  });

  test('stops a running command with the Stop button', async () => {
    const card = approvalCard();
    await card.waitFor();
    expect(await card.locator('.approval-command').innerText()).toContain('sleep 30');
    await card.getByRole('button', { name: /Allow for this session/ }).click();

    const sleeping = toolCard(page, 'bash').filter({ hasText: 'sleep 30' }).first();
    await sleeping.locator('.tool-phase .spinner').waitFor();
    await chat().getByRole('button', { name: /^Stop/ }).click();
    const stopped = chat().locator('[data-outcome="cancelled"]');
    await stopped.waitFor({ timeout: 5_000 });
    // The card's result, the outcome row and the idle status each come by their own event.
    await expect.poll(() => sleeping.locator('.tool-meta').innerText()).toContain('Stopped');
    await expect.poll(() => chat().getByRole('button', { name: /^Stop/ }).count()).toBe(0);
    await expand(sleeping);
    expect(await sleeping.innerText()).toContain('Stopped by you');
    await screenshot(page, 'chat-stopped');
  });

  test('stops a running command with Esc', async () => {
    await composer().fill('Try the long command again');
    await composer().press('Enter');
    // Allowed for this session ("sleep commands"), so it runs without asking.
    const sleeping = toolCard(page, 'bash').filter({ hasText: 'sleep 31' });
    await sleeping.locator('.tool-phase .spinner').waitFor();
    expect(await approvalCard().count()).toBe(0);
    // A message queued now is never taken: the stop leaves it "not sent".
    await composer().fill(NOT_SENT);
    await composer().press('Enter');
    const waiting = chat().locator('.chat-user').filter({ hasText: NOT_SENT });
    await expect.poll(() => waiting.getAttribute('data-message-state')).toBe('queued');
    await composer().press('Escape');
    await expect.poll(() => chat().locator('[data-outcome="cancelled"]').count(), { timeout: 5_000 }).toBe(2);
    await expect.poll(() => sleeping.locator('.tool-meta').innerText()).toContain('Stopped');
    await expect.poll(() => waiting.getAttribute('data-message-state')).toBe('not-sent');
    expect(await waiting.innerText()).toContain('Not sent');
    expect(await waiting.getByRole('button', { name: 'Send it now' }).count()).toBe(1);
    expect(server.remaining).toBe(0);
  });

  test('after a restart of keel web, the chat, the plan and the outcomes are all there', async () => {
    await page.context().close();
    await keel.stop();
    keel = await startKeel();
    page = await openPage();

    const transcript = chat().locator('.transcript-scroll');
    // The chat reopens at its end and is virtualized: the first message is only rendered once
    // the transcript is scrolled back to the top.
    await transcript.locator('.transcript-row').first().waitFor();
    // Up by key, as a person would: the view stops following the end. (Following, a row measured as
    // it renders can put the view back at the end in the middle of the scan below.)
    await transcript.focus();
    await page.keyboard.press('Home');
    await expect
      .poll(async () => {
        await transcript.evaluate((el) => (el.scrollTop = 0));
        return chat().locator('.chat-user').filter({ hasText: TASK }).count();
      })
      .toBeGreaterThan(0);
    // Everything fits in a few screens: scroll through and collect what the rows say.
    const seen = new Set<string>();
    for (let top = 0; top < 20_000; top += 300) {
      for (const row of await transcript.locator('.transcript-row').allInnerTexts()) seen.add(row);
      const done = await transcript.evaluate((el, y) => {
        el.scrollTop = y;
        return el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      }, top);
      await rowsCoverView(transcript);
      if (done) {
        for (const row of await transcript.locator('.transcript-row').allInnerTexts()) seen.add(row);
        break;
      }
    }
    const all = [...seen].join('\n');
    for (const expected of [
      TASK,
      'board next to the chat',
      ECHO,
      'hello.py',
      QUEUED,
      'Your plan edit was sent to the agent',
      'sleep 30',
      'Try the long command again',
      NOT_SENT,
    ]) {
      expect(all).toContain(expected);
    }
    expect(all).toContain('Stopped');
    expect(all).toContain('Denied');
    expect(await chat().locator('[data-outcome="cancelled"]').count()).toBeGreaterThanOrEqual(1);
    // The message the stop left behind still says it was not sent.
    const notSent = chat().locator('.chat-user').filter({ hasText: NOT_SENT });
    expect(await notSent.count()).toBe(1);
    expect(await notSent.getAttribute('data-message-state')).toBe('not-sent');

    // The queued message is where the agent took it, not queued any more.
    await chat()
      .locator('.transcript-scroll')
      .evaluate((el) => (el.scrollTop = 0));
    await board(page).waitFor();
    expect(await stepTexts(page)).toEqual([WRITE, RUN, REPORT, ADDED]);
    expect(await page.getByRole('combobox', { name: `Status of ${WRITE}`, exact: true }).inputValue()).toBe('completed');
    // ↑ in the empty composer recalls this session's messages, newest first.
    await composer().focus();
    await composer().press('ArrowUp');
    expect(await composer().inputValue()).toBe(NOT_SENT);
    await composer().press('ArrowUp');
    expect(await composer().inputValue()).toBe('Try the long command again');
    await composer().press('ArrowUp');
    expect(await composer().inputValue()).toBe(QUEUED);
    for (let i = 0; i < 3; i++) await composer().press('ArrowDown');
    expect(await composer().inputValue()).toBe('');
  }, 90_000);
});
