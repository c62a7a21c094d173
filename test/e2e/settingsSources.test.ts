import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// Settings says where each value comes from (Keel's default, the settings file, the environment,
// the endpoint's catalogue), suggests the models the endpoint lists, says when the saved one is
// deprecated, and edits network.allow with main's own check of every host.

const home = tempDir('sources-home');
const root = tempDir('sources-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);
const settingsFile = join(home.path, 'settings.json');
writeFileSync(settingsFile, JSON.stringify({ maxTokens: 8000, approvalMode: 'ask' }));

let server: ScriptedAnthropic;
let keel: KeelWeb;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startScriptedAnthropic({
    apiKey: 'k',
    catalogue: [
      { id: 'claude-sonnet-5-5', max_input_tokens: 180_000, max_tokens: 64_000, thinking: ['adaptive'], effort: ['low', 'medium', 'high'] },
      { id: 'claude-opus-5-5', max_input_tokens: 200_000, max_tokens: 128_000, thinking: ['adaptive'], effort: ['low', 'medium', 'high', 'max'] },
      { id: 'claude-old-4', max_input_tokens: 100_000, max_tokens: 8_000, lifecycle: 'deprecated' },
    ],
    script: [],
  });
  keel = await startKeelWeb({
    workspace: folder,
    keelHome: home.path,
    env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k', KEEL_NETWORK_ALLOW: 'env.example.com' },
  });
  browser = await connectChromium();
  page = (await newPage(browser, { viewport: { width: 1280, height: 1000 } })).page;
  await page.goto(keel.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await keel?.stop();
  await server?.close();
  home.remove();
  root.remove();
});

/** The source tag beside a field's label. */
const sourceOf = (dialog: Locator, label: string) =>
  dialog
    .locator('.field')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.source-tag');
const profileRow = (dialog: Locator, key: string) => dialog.locator(`.profile-row[data-value="${key}"] dd`);
const meter = () => page.locator('.status-bar .context-meter');
const fileOnDisk = () => JSON.parse(readFileSync(settingsFile, 'utf8')) as { network?: { allow?: string[] }; model?: string };

async function openSettings(): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

describe('the Settings dialog', () => {
  test('says where each value comes from, and what the agent runs with for the model', async () => {
    // Before any task, the status bar's meter already plans with the catalogue's window.
    await expect.poll(() => meter().innerText(), { timeout: 10_000 }).toMatch(/ \/ 180K/);
    const dialog = await openSettings();
    expect(await sourceOf(dialog, 'Base URL').innerText()).toBe('environment');
    expect(await sourceOf(dialog, 'Model').innerText()).toBe('default');
    expect(await sourceOf(dialog, 'Max tokens per answer').innerText()).toBe('settings file');
    expect(await sourceOf(dialog, 'Plan reminder after').innerText()).toBe('default');
    expect(await dialog.locator('legend', { hasText: 'Approval mode' }).locator('.source-tag').innerText()).toBe('settings file');

    await expect.poll(() => profileRow(dialog, 'contextWindow').innerText()).toBe('180,000 tokens endpoint catalogue');
    expect(await profileRow(dialog, 'maxTokens').innerText()).toBe('8,000 tokens settings file');
    expect(await profileRow(dialog, 'thinking').innerText()).toBe('Adaptive endpoint catalogue');
    expect(await profileRow(dialog, 'effort').innerText()).toBe('Medium (offers Low, Medium, High) endpoint catalogue');
    // An empty window field means the catalogue's window, and says so.
    const windowField = dialog.getByLabel('Context window', { exact: true });
    expect(await windowField.getAttribute('placeholder')).toBe('180,000');
    expect(await dialog.getByText('Empty: 180,000 tokens, the window the endpoint lists for this model.').count()).toBe(1);

    // The model field suggests the endpoint's active models, not its deprecated one.
    const list = await dialog.getByLabel('Model', { exact: true }).getAttribute('list');
    expect(await dialog.locator(`datalist[id="${list}"] option`).evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'claude-sonnet-5-5',
      'claude-opus-5-5',
    ]);
    expect(await dialog.getByText('Suggestions are the 2 active models the endpoint lists; any name can be typed.').count()).toBe(1);
    await screenshot(page, 'settings-sources');
  }, 60_000);

  test('refuses a network.allow entry that is not a host, naming it, and saves a good list', async () => {
    const dialog = page.getByRole('dialog');
    const hosts = dialog.getByLabel('Hosts the agent may reach');
    expect(await dialog.getByText('Also from KEEL_NETWORK_ALLOW: env.example.com').count()).toBe(1);
    expect(await sourceOf(dialog, 'Hosts the agent may reach').innerText()).toBe('environment');

    await hosts.fill('docs.example.com\nhttps://bad.example.com/path');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const error = dialog.locator('.field-error', { hasText: 'https://bad.example.com/path' });
    await error.waitFor();
    expect(await error.innerText()).toMatch(/^These are not host names or addresses: https:\/\/bad\.example\.com\/path\./);
    expect(await hosts.getAttribute('aria-invalid')).toBe('true');
    expect(fileOnDisk().network).toBeUndefined();
    await screenshot(page, 'settings-network-refused');

    await hosts.fill('Docs.Example.com\n10.0.0.5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    expect(fileOnDisk().network?.allow).toEqual(['docs.example.com', '10.0.0.5']);
    expect(await hosts.inputValue()).toBe('docs.example.com\n10.0.0.5');
    expect(await sourceOf(dialog, 'Hosts the agent may reach').innerText()).toBe('settings file');
  }, 60_000);

  test('a deprecated model from the catalogue says so once saved, and its values follow the catalogue', async () => {
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Model', { exact: true }).fill('claude-old-4');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    expect(fileOnDisk().model).toBe('claude-old-4');
    await dialog.getByText('The endpoint lists claude-old-4 as deprecated: pick a newer model.').waitFor();
    expect(await sourceOf(dialog, 'Model').innerText()).toBe('settings file');
    await expect.poll(() => profileRow(dialog, 'contextWindow').innerText()).toBe('100,000 tokens endpoint catalogue');
    expect(await profileRow(dialog, 'effort').innerText()).toBe('None (the model lists no levels) default');
    await expect.poll(() => meter().innerText()).toMatch(/ \/ 100K/);
    await screenshot(page, 'settings-deprecated');
  }, 60_000);
});
