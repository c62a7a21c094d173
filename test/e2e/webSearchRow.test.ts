import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { cited, reply, startScriptedAnthropic, webSearch, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// A web search the API ran is its own row in the chat: the query, folded; opened, each result's
// title and host as plain text. Nothing of a result is loaded: the page never asks the web for
// anything. After a reload the row is read back from the session.

const MODEL = 'claude-sonnet-5-5';
const QUERY = 'vitest projects config';
const DOCS = { url: 'https://vitest.dev/guide/projects', title: 'Test Projects | Vitest' };
const BLOG = { url: 'https://blog.example.org/vitest', title: 'Vitest in practice' };
const ANSWER = 'Each project has its own config.';

const home = tempDir('websearch-home');
const root = tempDir('websearch-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);

let server: ScriptedAnthropic;
let keel: KeelWeb;
let browser: Browser;
let page: Page;
/** Every address the page asked for that is not Keel's own. */
const remote: string[] = [];

beforeAll(async () => {
  server = await startScriptedAnthropic({
    apiKey: 'k',
    catalogue: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000, serverTools: ['web_search'] }],
    script: [reply(...webSearch(QUERY, [DOCS, BLOG]), cited(ANSWER, DOCS))],
  });
  // The scripted server is not Anthropic's host: `on` offers the search wherever the catalogue lists it.
  keel = await startKeelWeb({
    workspace: folder,
    keelHome: home.path,
    env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k', KEEL_MODEL: MODEL, KEEL_WEB_SEARCH: 'on' },
  });
  browser = await connectChromium();
  page = (await newPage(browser)).page;
  const own = new URL(keel.url).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(own) && !url.startsWith('data:') && !url.startsWith('blob:')) remote.push(url);
  });
  await page.goto(keel.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  await server?.close();
  home.remove();
  root.remove();
});

const row = () => page.locator('section.chat-panel [data-testid="web-search-row"]');
const toggle = () => row().getByRole('button', { name: /Searched the web for/ });
const results = () => row().locator('.web-search-result');

describe('the web search row', () => {
  test('shows the query folded, and opens to the results’ titles and hosts without loading them', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('How do Vitest projects work?');
    await composer.press('Enter');
    await page.getByText(ANSWER).waitFor();
    expect(JSON.stringify(server.requests[0]!.body.tools)).toContain('web_search_20250305');

    await expect.poll(() => row().count()).toBe(1);
    expect(await row().getAttribute('data-done')).toBe('true');
    expect(await toggle().innerText()).toBe(`Searched the web for “${QUERY}” · 2 results`);
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    expect(await results().count()).toBe(0);

    await toggle().click();
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    expect(await results().allInnerTexts()).toEqual([`${DOCS.title} vitest.dev`, `${BLOG.title} blog.example.org`]);
    // Titles and hosts are text, not links: nothing opens or loads on its own.
    expect(await row().locator('a, img, iframe').count()).toBe(0);
    await screenshot(page, 'chat-web-search-open');
    expect(remote).toEqual([]);
  }, 60_000);

  test('is still there after a reload, folded, and opens from the keyboard', async () => {
    await page.reload();
    await page.getByText(ANSWER).waitFor();
    await expect.poll(() => row().count()).toBe(1);
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    await toggle().focus();
    await page.keyboard.press('Enter');
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    expect(await results().count()).toBe(2);
    expect(remote).toEqual([]);
    expect(server.errors).toEqual([]);
  }, 60_000);

  test('Settings says web search is offered, set by KEEL_WEB_SEARCH, and does not let it be changed there', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('.profile-row[data-value="webSearch"] dd').innerText()).toBe('Offered to the model environment');
    const group = dialog.getByRole('group', { name: /^Web search/ });
    expect(await group.locator('.source-tag').innerText()).toBe('environment');
    expect(await group.getByText('Set by KEEL_WEB_SEARCH: change or unset it to choose here.').count()).toBe(1);
    expect(await group.getByRole('radio', { name: /Also through a gateway/ }).isChecked()).toBe(true);
    expect(await group.getByRole('radio', { name: /^Off/ }).isDisabled()).toBe(true);
    await screenshot(page, 'settings-web-search');
    await page.keyboard.press('Escape');
  }, 60_000);
});
