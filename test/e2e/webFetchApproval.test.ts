import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { reply, startScriptedAnthropic, text, toolResults, toolResultText, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// In Ask first, the agent's first page from a new host waits for the person: the card names the
// host and offers "Allow <host> for this session"; once allowed, the next page of that host does
// not ask. (No internet here: the allowed fetch then fails to resolve, which the model is told.)

const home = tempDir('webfetch-home');
const root = tempDir('webfetch-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

let server: ScriptedAnthropic;
let keel: KeelWeb;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startScriptedAnthropic({
    apiKey: 'k',
    script: [
      reply(text('Reading the docs.'), toolUse('web_fetch', { url: 'https://docs.example.com/start' })),
      reply(toolUse('web_fetch', { url: 'https://docs.example.com/next' })),
      reply(text('Read both.')),
    ],
  });
  keel = await startKeelWeb({ workspace: folder, keelHome: home.path, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' } });
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

describe('web_fetch of a new host in Ask first', () => {
  test('asks, with "Allow docs.example.com for this session"; the same host then goes ahead without a card', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('read the docs');
    await composer.press('Enter');
    const card = page.locator('section.chat-panel .approval-card');
    await card.waitFor();
    expect(await card.getByRole('heading').innerText()).toBe('Fetch a page from docs.example.com?');
    expect(await card.locator('.approval-url').innerText()).toBe('https://docs.example.com/start');
    expect(await card.getByRole('button', { name: 'Always allow docs.example.com' }).count()).toBe(1);
    await screenshot(page, 'chat-approval-web-fetch');
    await card.getByRole('button', { name: 'Allow docs.example.com for this session' }).click();

    await expect.poll(() => server.requests.length, { timeout: 20_000 }).toBe(3);
    // Both fetches ran (and failed only because there is no DNS here); neither was denied.
    for (const request of server.requests.slice(1)) {
      const [result] = toolResults(request);
      expect(toolResultText(result!)).not.toContain('denied');
      expect(toolResultText(result!)).toContain('docs.example.com');
    }
    expect(await page.locator('section.chat-panel .approval-card').count()).toBe(0);
  }, 60_000);
});
