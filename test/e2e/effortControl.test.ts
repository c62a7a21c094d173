import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir, type KeelWeb } from './support/keelWeb';
import { reply, startScriptedAnthropic, text, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// The status bar's effort control offers the levels the endpoint's catalogue lists for the model
// (only those), and the request after the person picks one carries it as output_config.effort.
// A model that lists no effort shows no control and is sent none.

const MODEL = 'claude-sonnet-5-5';

interface Setup {
  server: ScriptedAnthropic;
  keel: KeelWeb;
  page: Page;
  cleanup(): Promise<void>;
}

let browser: Browser;

async function setup(name: string, effort: ('low' | 'medium' | 'high' | 'xhigh' | 'max')[]): Promise<Setup> {
  const home = tempDir(`${name}-home`);
  const root = tempDir(`${name}-ws`);
  const folder = join(root.path, 'project');
  mkdirSync(folder);
  const server = await startScriptedAnthropic({
    apiKey: 'k',
    catalogue: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000, thinking: ['adaptive'], effort }],
    script: [reply(text('First answer.')), reply(text('Second answer.'))],
  });
  const keel = await startKeelWeb({
    workspace: folder,
    keelHome: home.path,
    env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k', KEEL_MODEL: MODEL },
  });
  const page = (await newPage(browser)).page;
  await page.goto(keel.url);
  return {
    server,
    keel,
    page,
    cleanup: async () => {
      await page.close();
      await keel.stop();
      await server.close();
      home.remove();
      root.remove();
    },
  };
}

async function send(page: Page, message: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message to the agent' });
  await composer.fill(message);
  await composer.press('Enter');
}

const effortOf = (body: unknown) => (body as { output_config?: { effort?: string } }).output_config?.effort;

beforeAll(async () => {
  browser = await connectChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('the effort control in the status bar', () => {
  test('offers only the levels the model lists; the next request carries the one picked', async () => {
    const { server, page, cleanup } = await setup('effort', ['low', 'medium', 'high']);
    try {
      const select = page.locator('.status-bar').getByLabel('Effort');
      await select.waitFor();
      expect(await select.locator('option').allInnerTexts()).toEqual(['Low', 'Medium', 'High']);
      expect(await select.inputValue()).toBe('medium');

      await send(page, 'first');
      await page.getByText('First answer.').waitFor();
      expect(effortOf(server.requests[0]!.body)).toBe('medium');

      await select.selectOption({ label: 'High' });
      await expect.poll(() => select.inputValue()).toBe('high');
      await screenshot(page, 'status-effort-high');
      await send(page, 'second');
      await page.getByText('Second answer.').waitFor();
      expect(server.requests).toHaveLength(2);
      expect(effortOf(server.requests[1]!.body)).toBe('high');
      expect(server.errors).toEqual([]);

      // A narrow window keeps the control whole and inside the bar, beside the approval mode.
      await page.setViewportSize({ width: 760, height: 700 });
      const bar = (await page.locator('.status-bar').boundingBox())!;
      for (const control of [select, page.locator('.status-bar .approval-mode button')]) {
        const box = (await control.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(bar.x);
        expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width);
      }
      await screenshot(page, 'status-effort-narrow');
    } finally {
      await cleanup();
    }
  }, 90_000);

  test('shows no control for a model without effort levels, and sends none', async () => {
    const { server, page, cleanup } = await setup('noeffort', []);
    try {
      await page.locator('.status-bar .status-model').waitFor();
      await send(page, 'first');
      await page.getByText('First answer.').waitFor();
      expect(await page.locator('.status-bar').getByLabel('Effort').count()).toBe(0);
      expect(effortOf(server.requests[0]!.body)).toBeUndefined();
    } finally {
      await cleanup();
    }
  }, 90_000);
});
