import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { openScriptedWindow, type ScriptedWindow } from './support/scriptedWindow';
import { connectKeelSocket } from './support/keelSocket';
import { reply, text, toolResults, toolResultText, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { EVERYTHING } from '../integration/mcp/servers';

/*
 * MCP servers in `keel web`, in Chromium: the person adds server-everything in Settings and sees
 * its tools, trusts the folder's .mcp.json once, then approves an MCP call in the chat; the
 * scripted model gets the server's answer.
 */

const home = tempDir('mcp-home');
const folder = tempDir('mcp-ws');
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));
writeFileSync(join(folder.path, '.mcp.json'), JSON.stringify({ mcpServers: { folder: EVERYTHING } }, null, 2));

let scripted: ScriptedWindow;
let server: ScriptedAnthropic;
let keel: KeelWeb;
let page: Page;
let errors: string[] = [];

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical accessibility problems axe-core finds in the element `selector` names. */
async function axeViolations(selector: string): Promise<unknown[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (root) => {
    const axe = (
      window as unknown as {
        axe: { run(context: Element): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document.querySelector(root)!);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  }, selector);
}

const settingsDialog = (): Locator => page.getByRole('dialog', { name: 'Settings' });
const serverRow = (name: string): Locator => settingsDialog().locator(`.mcp-server[data-mcp-server="${name}"]`);

beforeAll(async () => {
  scripted = await openScriptedWindow({
    workspace: folder.path,
    keelHome: home.path,
    script: [reply(text('Calling the server.'), toolUse('mcp__everything__echo', { message: 'hello through MCP' })), reply(text('The server echoed it.'))],
  });
  ({ server, keel, page, errors } = scripted);
}, 60_000);

afterAll(async () => {
  await scripted?.close();
  home.remove();
  folder.remove();
});

describe('MCP servers in the window', () => {
  test('add a server in Settings and see its state and tools; trust the folder’s .mcp.json once', async () => {
    // The folder's untrusted servers are pointed out above the composer.
    const banner = page.locator('.mcp-trust-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Its .mcp.json asks to start folder');
    await screenshot(page, 'mcp-trust-banner');
    await banner.getByRole('button', { name: 'Review in Settings' }).click();
    const dialog = settingsDialog();
    await dialog.getByRole('heading', { name: 'MCP servers' }).scrollIntoViewIfNeeded();
    // The folder's server waits for the person's trust.
    await serverRow('folder').waitFor();
    expect(await serverRow('folder').getAttribute('data-state')).toBe('untrusted');
    await dialog.getByText('This folder has MCP servers').waitFor();

    await dialog.getByRole('button', { name: 'Add server' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('everything');
    await dialog.getByLabel('Server (JSON)').fill(JSON.stringify(EVERYTHING, null, 2));
    await dialog.getByRole('button', { name: 'Save server' }).click();
    await dialog.locator('.mcp-server[data-mcp-server="everything"][data-state="running"]').waitFor({ timeout: 60_000 });
    const row = serverRow('everything');
    expect(await row.locator('.mcp-state').innerText()).toBe('Running');
    await row.locator('.mcp-tools summary').click();
    await row.getByText('mcp__everything__echo', { exact: true }).waitFor();
    expect(await row.locator('.mcp-tools summary').innerText()).toMatch(/^\d+ tools$/);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-settings-servers');
    expect(await axeViolations('.mcp')).toEqual([]);

    await dialog.getByRole('button', { name: "Trust this folder's MCP servers" }).click();
    await dialog.locator('.mcp-server[data-mcp-server="folder"][data-state="running"]').waitFor({ timeout: 60_000 });
    await dialog.getByText("This folder's .mcp.json is trusted.").waitFor();
    expect(await dialog.getByText('This folder has MCP servers').count()).toBe(0);
    await serverRow('folder').scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-settings-trusted');
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    expect(await banner.count()).toBe(0);
  }, 120_000);

  test('an MCP call asks with server, tool and arguments; once approved, the model gets the answer', async () => {
    await page.getByRole('textbox', { name: 'Message to the agent' }).fill('Echo something through MCP');
    await page.keyboard.press('Enter');
    const card = page.locator('section.chat-panel .approval-card');
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByRole('heading').innerText()).toBe('Allow echo from the MCP server everything?');
    expect(await card.locator('.approval-mcp pre').innerText()).toContain('"message": "hello through MCP"');
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-approval-card');
    expect(await axeViolations('section.chat-panel .approval-card')).toEqual([]);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => page.getByRole('contentinfo').innerText(), { timeout: 60_000 }).toContain('Done');
    const request = server.requests[1]!;
    expect(toolResults(request).map(toolResultText)).toEqual(['Echo: hello through MCP']);
    expect(errors).toEqual([]);
  }, 120_000);

  test('in 简体中文 and the dark theme, a failed server shows its reason and stderr', async () => {
    const socket = await connectKeelSocket(keel.url);
    try {
      expect((await socket.request('settings.update', { language: 'zh-CN', theme: 'dark' })).ok).toBe(true);
      const saved = await socket.request('mcp.saveServer', {
        name: 'broken',
        config: { command: process.execPath, args: ['-e', "console.error('error: DATABASE_URL is not set'); process.exit(2)"] },
      });
      expect(saved.ok).toBe(true);
    } finally {
      socket.close();
    }
    await page.reload();
    await page.getByRole('button', { name: '设置', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '设置' });
    const row = dialog.locator('.mcp-server[data-mcp-server="broken"][data-state="failed"]');
    await row.waitFor({ timeout: 60_000 });
    expect(await row.locator('.mcp-state').innerText()).toBe('失败');
    expect(await row.locator('.mcp-stderr pre').innerText()).toContain('DATABASE_URL is not set');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-settings-failed-zh-dark');
    expect(await axeViolations('.mcp')).toEqual([]);
  }, 120_000);
});
