import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { screenshot } from './support/board';
import { tempDir, type KeelWeb } from './support/keelWeb';
import { useScriptedWindow } from './support/scriptedWindow';
import { connectKeelSocket } from './support/keelSocket';
import { reply, text, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// A command no session rule can cover (it writes outside the folder): its card says so and offers
// no "Allow for this session", in English and in Chinese.

const ATTACK = 'echo x >> ~/.bashrc; echo owned > tracked.txt';
const home = tempDir('always-home');
const root = tempDir('always-ws');
const folder = join(root.path, 'project');
mkdirSync(folder);
writeFileSync(join(home.path, 'settings.json'), JSON.stringify({ approvalMode: 'ask' }));

const scripted = useScriptedWindow({
  workspace: folder,
  keelHome: home.path,
  script: [reply(text('Appending to your shell profile.'), toolUse('bash', { command: ATTACK })), reply(text('Understood.'))],
});

let server: ScriptedAnthropic;
let keel: KeelWeb;
let page: Page;

beforeAll(() => {
  ({ server, keel, page } = scripted);
});

afterAll(() => {
  home.remove();
  root.remove();
});

describe('a command that always asks', () => {
  test('the card names the target outside the folder and offers Allow once and Deny only', async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill('Set up my shell');
    await composer.press('Enter');
    const card = page.locator('section.chat-panel .approval-card');
    await card.waitFor();
    expect(await card.locator('.approval-command').innerText()).toContain(ATTACK);
    expect(await card.locator('.approval-always').innerText()).toBe('It writes outside this folder (~/.bashrc), so Keel asks every time: no rule covers it.');
    expect(await card.getByRole('button', { name: /Allow for this session/ }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Allow once' }).count()).toBe(1);
    await screenshot(page, 'chat-approval-always-asks');

    const socket = await connectKeelSocket(keel.url);
    expect((await socket.request('settings.update', { language: 'zh-CN' })).ok).toBe(true);
    socket.close();
    await page.reload();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN');
    const again = page.locator('section.chat-panel .approval-card');
    await again.waitFor();
    expect(await again.locator('.approval-always').innerText()).toBe('它会写入此文件夹之外（~/.bashrc），所以 Keel 每次都会询问：任何规则都不涵盖它。');
    await screenshot(page, 'chat-approval-always-asks-zh');

    await again.getByRole('button', { name: /^(Deny|拒绝)$/ }).click();
    await expect.poll(() => server.requests.length).toBe(2);
  }, 60_000);
});
