import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { redactedThinking, reply, startScriptedAnthropic, text, thinking, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// The model's thinking is its own row in the chat: folded once the answer is there, opened with a
// click, and still there (folded) after a reload, read back from the session; a redacted block
// says the reasoning was hidden.

const MODEL = 'claude-sonnet-5-5';
const THOUGHT = 'Two ways to do it: a flag or a new command. The flag is smaller.';

const home = tempDir('thinking-home');
const root = tempDir('thinking-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);

let server: ScriptedAnthropic;
let keel: KeelWeb;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startScriptedAnthropic({
    apiKey: 'k',
    catalogue: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000, thinking: ['adaptive'], effort: ['low', 'medium', 'high'] }],
    script: [reply(thinking(THOUGHT), redactedThinking('opaque-bytes'), text('Add a flag.'))],
  });
  keel = await startKeelWeb({ workspace: folder, keelHome: home.path, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k', KEEL_MODEL: MODEL } });
  browser = await connectChromium();
  page = (await newPage(browser)).page;
  await page.goto(keel.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  await server?.close();
  home.remove();
  root.remove();
});

const rows = () => page.locator('section.chat-panel [data-testid="thinking-row"]');
const shown = () => rows().first();
const toggle = () => shown().getByRole('button', { name: 'Thought before answering' });

describe('the thinking row', () => {
  test('is folded once the answer is there, and opens on a click', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('flag or command?');
    await composer.press('Enter');
    await page.getByText('Add a flag.').waitFor();
    expect((server.requests[0]!.body as { thinking?: unknown }).thinking).toEqual({ type: 'adaptive' });

    await expect.poll(() => rows().count()).toBe(2);
    expect(await shown().getAttribute('data-streaming')).toBe('false');
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    expect(await shown().getByText(THOUGHT).count()).toBe(0);
    expect(await rows().nth(1).innerText()).toBe('Reasoning hidden by the model');

    await toggle().click();
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    expect(await shown().locator('.thinking-text').innerText()).toBe(THOUGHT);
    await screenshot(page, 'chat-thinking-open');
  }, 60_000);

  test('is still there after a reload, folded, and opens again from the keyboard', async () => {
    await page.reload();
    await page.getByText('Add a flag.').waitFor();
    await expect.poll(() => rows().count()).toBe(2);
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    expect(await shown().getByText(THOUGHT).count()).toBe(0);
    expect(await rows().nth(1).innerText()).toBe('Reasoning hidden by the model');
    await screenshot(page, 'chat-thinking-reloaded');
    // The keyboard opens it as well: the row's head is a button.
    await toggle().focus();
    await page.keyboard.press('Enter');
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    expect(await shown().locator('.thinking-text').innerText()).toBe(THOUGHT);
    await page.keyboard.press('Space');
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    expect(server.errors).toEqual([]);
  }, 60_000);
});
