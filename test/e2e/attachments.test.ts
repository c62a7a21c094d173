import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { TestPages } from './support/testPages';
import { connectChromium, newPage } from './support/chromium';
import { startKeelWeb, tempDir } from './support/keelWeb';
import { makePng } from '../support/png';
import { imagesOf, reply, startScriptedAnthropic, textOf, toolUse, type ScriptedRequest } from '../support/scriptedAnthropic';

/*
 * Pictures and @-mentions in the real window (`keel web` in Chromium) against the scripted model:
 * a pasted picture is seen before sending, in the chat after, in the model's request, and again
 * after a reload; a large one is scaled down in the page; `@` completes a path that is sent.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

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

async function setUp(settings: object = {}, script?: (request: ScriptedRequest, index: number) => ReturnType<typeof reply>) {
  const home = tempDir('attach-home');
  const root = tempDir('attach-ws');
  const folder = join(root.path, 'shop');
  mkdirSync(join(folder, 'src', 'cart'), { recursive: true });
  mkdirSync(join(folder, 'dist'));
  writeFileSync(join(folder, '.gitignore'), 'dist/\n');
  writeFileSync(join(folder, 'src', 'app.ts'), 'export const shopName = "Corner Shop";\n');
  writeFileSync(join(folder, 'src', 'cart', 'total.ts'), 'export function total(prices: number[]) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n');
  writeFileSync(join(folder, 'dist', 'app.js'), 'built\n');
  writeFileSync(join(home.path, 'settings.json'), JSON.stringify(settings));
  const requests: ScriptedRequest[] = [];
  const answer = (request: ScriptedRequest) => {
    requests.push(request);
    return script ? script(request, requests.length - 1) : reply('I have looked at it.');
  };
  const server = await startScriptedAnthropic({ apiKey: 'k', script: [answer, answer, answer] });
  const keel = await startKeelWeb({ workspace: folder, keelHome: home.path, env: { ANTHROPIC_BASE_URL: server.baseURL, ANTHROPIC_API_KEY: 'k' } });
  return {
    keel,
    folder,
    server,
    requests,
    async close() {
      await pages.close();
      await keel.stop();
      await server.close();
      home.remove();
      root.remove();
    },
  };
}

async function open(url: string): Promise<Page> {
  const page = await newPage(browser);
  pages.track(page);
  await page.page.goto(url);
  await page.page.locator('section.chat-panel textarea').waitFor();
  return page.page;
}

const composer = (page: Page): Locator => page.locator('#composer-input');

/** Pastes PNG bytes into the composer as a person's Ctrl+V of a screenshot does: a paste event whose clipboard holds a file. */
async function pastePng(page: Page, png: Buffer, name = 'screenshot.png'): Promise<void> {
  await composer(page).focus();
  await page.evaluate(
    ({ base64, name }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: 'image/png' }));
      document.querySelector('#composer-input')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64: png.toString('base64'), name },
  );
}

function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('pictures and @-mentions in the window', () => {
  test('a pasted picture and an @-completed path reach the model and stay in the chat after a reload', async () => {
    const env = await setUp();
    try {
      const page = await open(env.keel.url);
      const png = makePng(240, 160);
      await pastePng(page, png);
      const pending = page.locator('.composer-image img');
      await expect.poll(() => pending.count()).toBe(1);
      await expect.poll(() => pending.getAttribute('alt')).toBe('Picture 1');

      // @-completion: the menu lists matching paths (never the ignored dist/), ↓ moves, Enter inserts.
      await composer(page).pressSequentially('What is wrong in @tot');
      const options = page.getByRole('option');
      await expect.poll(() => options.first().textContent()).toBe('total.tssrc/cart');
      await composer(page).fill('What is wrong in @');
      await composer(page).pressSequentially('app');
      await expect.poll(() => options.allTextContents()).toEqual(['app.tssrc']);
      await screenshot(page, 'attachments-menu');
      expect(await axeViolations(page)).toEqual([]);
      await composer(page).press('Enter');
      await expect.poll(() => composer(page).inputValue()).toBe('What is wrong in @src/app.ts ');
      await expect.poll(() => options.count()).toBe(0);
      await screenshot(page, 'attachments-composer');

      await composer(page).pressSequentially('and this screen?');
      await composer(page).press('Enter');

      const message = page.locator('.chat-user').first();
      await expect.poll(() => message.locator('.mention-chip').textContent()).toBe('@src/app.ts');
      await expect.poll(() => message.locator('.chat-image img').count()).toBe(1);
      await expect.poll(() => page.locator('.composer-image').count()).toBe(0);
      await expect.poll(() => env.requests.length).toBe(1);
      const first = env.requests[0]!.body.messages[0]!;
      expect(textOf(first)).toContain('What is wrong in @src/app.ts and this screen?');
      expect(textOf(first)).toContain('export const shopName = "Corner Shop";');
      // Within the limits, the picture is sent as it was pasted.
      expect(imagesOf(first).map((image) => image.source)).toEqual([{ type: 'base64', media_type: 'image/png', data: png.toString('base64') }]);
      await page.getByText('I have looked at it.').waitFor({ timeout: 15_000 });
      await screenshot(page, 'attachments-chat');
      expect(await axeViolations(page)).toEqual([]);

      // After a reload the chat is rebuilt from the transcript: the thumbnail and the chip are back.
      await page.reload();
      await expect.poll(() => page.locator('.chat-user .chat-image img').count(), { timeout: 15_000 }).toBe(1);
      expect(await page.locator('.chat-user .mention-chip').textContent()).toBe('@src/app.ts');
      const shown = await page
        .locator('.chat-user .chat-image img')
        .evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
      expect(shown).toEqual({ width: 240, height: 160 });

      // Esc closes the menu without stopping anything or changing the text.
      await composer(page).fill('see @sr');
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      await composer(page).press('Escape');
      await expect.poll(() => options.count()).toBe(0);
      expect(await composer(page).inputValue()).toBe('see @sr');
    } finally {
      await env.close();
    }
  });

  test('a pasted screenshot alone is sent with Enter or the Send button, shown as its picture without an empty line', async () => {
    const env = await setUp();
    try {
      const page = await open(env.keel.url);
      const send = page.getByRole('button', { name: 'Send' });
      // With neither words nor a picture there is nothing to send.
      expect(await send.isDisabled()).toBe(true);
      const png = makePng(200, 120);
      await pastePng(page, png);
      await expect.poll(() => page.locator('.composer-image img').count()).toBe(1);
      expect(await send.isEnabled()).toBe(true);
      await composer(page).press('Enter');

      await expect.poll(() => env.requests.length, { timeout: 15_000 }).toBe(1);
      const first = env.requests[0]!.body.messages[0]!;
      expect(Array.isArray(first.content) && first.content.map((block) => block.type)).toEqual(['image']);
      expect(imagesOf(first).map((image) => image.source)).toEqual([{ type: 'base64', media_type: 'image/png', data: png.toString('base64') }]);
      const message = page.locator('.chat-user').first();
      await expect.poll(() => message.locator('.chat-image img').count()).toBe(1);
      expect(await message.locator('.chat-user-text').count()).toBe(0);
      await expect.poll(() => page.locator('.composer-image').count()).toBe(0);
      await page.getByText('I have looked at it.').waitFor({ timeout: 15_000 });
      expect(await send.isDisabled()).toBe(true);
      // The session is named for what it began with.
      await expect.poll(() => page.locator('.workspace-session').getAttribute('title')).toBe('A picture');
      await screenshot(page, 'attachments-picture-only');
      expect(await axeViolations(page)).toEqual([]);

      // The Send button sends a picture alone too.
      await pastePng(page, makePng(60, 40), 'second.png');
      await expect.poll(() => page.locator('.composer-image img').count()).toBe(1);
      await send.click();
      await expect.poll(() => env.requests.length, { timeout: 15_000 }).toBe(2);
      expect(imagesOf(env.requests[1]!.body.messages.at(-1))).toHaveLength(1);
      await expect.poll(() => page.locator('.chat-user .chat-image img').count()).toBe(2);
      expect(env.server.errors).toEqual([]);
    } finally {
      await env.close();
    }
  });

  test('↑ brings back a sent message with its @-mentions: sent again, the file goes with it and the chip shows', async () => {
    const env = await setUp();
    try {
      const page = await open(env.keel.url);
      await composer(page).pressSequentially('Explain @app');
      await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['app.tssrc']);
      await composer(page).press('Enter');
      // Typed at once, as a fast typist does: each key lands after the inserted path.
      await composer(page).pressSequentially('please');
      expect(await composer(page).inputValue()).toBe('Explain @src/app.ts please');
      await composer(page).press('Enter');
      await expect.poll(() => page.locator('.chat-user .mention-chip').count()).toBe(1);
      await page.getByText('I have looked at it.').waitFor({ timeout: 15_000 });

      await composer(page).fill('draft');
      await composer(page).press('Home');
      await composer(page).press('ArrowUp');
      await expect.poll(() => composer(page).inputValue()).toBe('Explain @src/app.ts please');
      // ↓ returns to the draft, ↑ again to the message.
      await composer(page).press('End');
      await composer(page).press('ArrowDown');
      await expect.poll(() => composer(page).inputValue()).toBe('draft');
      await composer(page).press('ArrowUp');
      await expect.poll(() => composer(page).inputValue()).toBe('Explain @src/app.ts please');
      await composer(page).press('Enter');

      await expect.poll(() => env.requests.length, { timeout: 15_000 }).toBe(2);
      const again = textOf(env.requests[1]!.body.messages.at(-1));
      expect(again).toContain('Explain @src/app.ts please');
      expect(again).toContain('export const shopName = "Corner Shop";');
      const second = page.locator('.chat-user').nth(1);
      await expect.poll(() => second.locator('.mention-chip').textContent()).toBe('@src/app.ts');
      await screenshot(page, 'attachments-recalled-mention');
    } finally {
      await env.close();
    }
  });

  test('a large picture is scaled to 1568 px in the page before it is sent; a removed one is not sent (简体中文)', async () => {
    const env = await setUp({ language: 'zh-CN' });
    try {
      const page = await open(env.keel.url);
      await pastePng(page, makePng(2400, 1200), 'wide.png');
      await pastePng(page, makePng(50, 50), 'small.png');
      await expect.poll(() => page.locator('.composer-image').count()).toBe(2);
      await page.getByRole('button', { name: '移除图片 2' }).click();
      await expect.poll(() => page.locator('.composer-image').count()).toBe(1);

      await composer(page).pressSequentially('看看 @cart');
      await expect.poll(() => page.getByRole('option').count()).toBe(1);
      await expect.poll(() => page.locator('.mention-hint').textContent()).toBe('↑↓ 选择 · Enter 或 Tab 插入 · Esc 关闭');
      await screenshot(page, 'attachments-zh-CN-menu');
      await composer(page).press('Tab');
      await composer(page).press('Enter');

      await expect.poll(() => env.requests.length, { timeout: 15_000 }).toBe(1);
      const images = imagesOf(env.requests[0]!.body.messages[0]);
      expect(images).toHaveLength(1);
      const source = images[0]!.source as { type: 'base64'; media_type: string; data: string };
      expect(source.media_type).toBe('image/png');
      expect(pngSize(source.data)).toEqual({ width: 1568, height: 784 });
      expect(textOf(env.requests[0]!.body.messages[0])).toContain('prices.reduce');
      await expect.poll(() => page.locator('.chat-user .chat-image img').count()).toBe(1);
      await expect.poll(() => page.locator('.chat-user .mention-chip').textContent()).toBe('@src/cart/total.ts');
      await screenshot(page, 'attachments-zh-CN-chat');
    } finally {
      await env.close();
    }
  });

  test('a dropped picture is attached; a picture the agent reads with read_file shows in its card (dark)', async () => {
    const shot = makePng(320, 200);
    const env = await setUp({ theme: 'dark' }, (_request, index) =>
      index === 0 ? reply(toolUse('read_file', { path: 'shots/error.png' })) : reply('The second picture is the same gradient.'),
    );
    try {
      mkdirSync(join(env.folder, 'shots'), { recursive: true });
      writeFileSync(join(env.folder, 'shots', 'error.png'), shot);
      const page = await open(env.keel.url);
      // A file that is not a picture is refused with a message, and nothing is attached.
      await page.evaluate(() => {
        const data = new DataTransfer();
        data.items.add(new File(['just text'], 'notes.txt', { type: 'text/plain' }));
        document.querySelector('.composer-box')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      });
      await expect.poll(() => page.locator('.composer .error-message').textContent()).toBe('Only PNG, JPEG, GIF and WebP pictures can be sent to the agent.');
      expect(await page.locator('.composer-image').count()).toBe(0);
      await page.evaluate((base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
        const box = document.querySelector('.composer-box')!;
        box.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        box.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }, makePng(80, 60).toString('base64'));
      await expect.poll(() => page.locator('.composer-image').count()).toBe(1);
      expect(await page.locator('.composer .error-message').count()).toBe(0);
      await composer(page).fill('Compare with shots/error.png');
      await composer(page).press('Enter');

      const card = page.locator('.tool-card[data-tool="read_file"]');
      await expect.poll(() => card.locator('.chat-image img').count(), { timeout: 15_000 }).toBe(1);
      await page.getByText('The second picture is the same gradient.').waitFor({ timeout: 15_000 });
      expect(imagesOf(env.requests[0]!.body.messages[0])).toHaveLength(1);
      const second = env.requests[1]!.body.messages.at(-1);
      expect(imagesOf(second).map((image) => image.source)).toEqual([{ type: 'base64', media_type: 'image/png', data: shot.toString('base64') }]);
      await screenshot(page, 'attachments-read-file-dark');
    } finally {
      await env.close();
    }
  });
});
