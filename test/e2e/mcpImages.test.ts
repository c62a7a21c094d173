import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { connectKeelSocket } from './support/keelSocket';
import { imagesOf, reply, text, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { EVERYTHING } from '../integration/mcp/servers';

/*
 * A picture an MCP tool returns, in `keel web` in Chromium: the tool card shows it as the call
 * ends, and again when the chat is rebuilt from the transcript after a reload.
 */

const TOOL = 'mcp__everything__get-tiny-image';
const home = tempDir('mcp-img-home');
const folder = tempDir('mcp-img-ws');
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'full_auto', mcpServers: { everything: EVERYTHING } }));

let scripted: ScriptedWindow;
let server: ScriptedAnthropic;
let keel: KeelWeb;
let page: Page;
let errors: string[] = [];

beforeAll(async () => {
  scripted = await openScriptedWindow({
    workspace: folder.path,
    keelHome: home.path,
    script: [reply(text('Asking the server for its picture.'), toolUse(TOOL, {})), reply(text('It is the MCP logo.'))],
  });
  ({ server, keel, page, errors } = scripted);
}, 90_000);

afterAll(async () => {
  await scripted?.close();
  home.remove();
  folder.remove();
});

const card = (): Locator => page.locator(`.tool-card[data-tool="${TOOL}"]`);

describe('a picture from an MCP tool', () => {
  test('is shown in the tool card live and after a reload', async () => {
    const socket = await connectKeelSocket(keel.url);
    try {
      // The model is offered the server's tools only once it runs.
      await expect
        .poll(
          async () => {
            const listed = await socket.request('mcp.list', {});
            return listed.ok ? listed.value.servers.find((s) => s.name === 'everything')?.state : undefined;
          },
          { timeout: 60_000 },
        )
        .toBe('running');
    } finally {
      socket.close();
    }
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Show me the tiny image');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('contentinfo').innerText(), { timeout: 60_000 }).toContain('Done');
    const sent = imagesOf(server.requests[1]!.body.messages.at(-1));
    expect(sent.map((image) => image.source.type === 'base64' && image.source.media_type)).toEqual(['image/png']);

    // Live: the card opened by itself, with the picture under the text that names it.
    const live = card().getByRole('img', { name: 'Picture 1 the tool returned' });
    await expect.poll(() => live.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await card().locator('.tool-output').innerText()).toContain('[image: image/png]');
    await card().scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-image-live');

    // Reloaded: the chat is rebuilt from the transcript, and the card is the same.
    await page.reload();
    const reloaded = card().getByRole('img', { name: 'Picture 1 the tool returned' });
    await expect.poll(() => reloaded.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await card().locator('.tool-output').innerText()).toContain('[image: image/png]');
    expect(await card().locator('.tool-head').getAttribute('aria-expanded')).toBe('true');
    // The picture opens full size from the keyboard.
    await card().locator('.chat-image').focus();
    await page.keyboard.press('Enter');
    expect(await card().locator('.chat-image').getAttribute('aria-expanded')).toBe('true');
    await card().scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-image-after-reload');
    expect(errors).toEqual([]);
  }, 120_000);
});
