import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../common/csp';
import { addStep, board, screenshot, stepTexts, waitForNewVersion } from '../e2e/support/board';
import { sandboxWorksHere } from '../support/sandboxProbe';
import { reply, startScriptedAnthropic, text, toolUse, type ScriptedAnthropic } from '../support/scriptedAnthropic';
import { processesWith, killProcessesWith, uniqueMarker } from '../unit/tools/bash/support';
import { chooseLaunchTarget } from './launchTarget';

/*
 * The real Electron app, as it ships where one is there: the packaged TEST build
 * (`KEEL_TEST_BUILD=1 npm run dist -- --dir`: asar, production fuses but the inspect one, the page
 * from keel://app), else the dev build in the Electron binary the electron package downloads,
 * else skipped, saying why (this machine is offline: no Electron binary, no package). In the
 * window it opens a folder through File › Open Folder…'s picker, runs a task against the scripted
 * model, edits the plan and takes a screenshot; quitting with a shell running leaves no process.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

function findElectron(): { binary: string | null; reason: string } {
  const require = createRequire(import.meta.url);
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { binary: null, reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const expected = override ? join(override, executable) : join(packageDir, 'dist', executable);
  // require('electron') starts a download when the binary is missing: only ask once the file is there.
  if (!existsSync(expected)) {
    return { binary: null, reason: `no Electron binary at ${expected} (it is downloaded on first launch; this machine is offline)` };
  }
  try {
    const binary: unknown = require('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { binary, reason: '' };
    return { binary: null, reason: `the electron package names ${String(binary)}, which does not exist` };
  } catch (error) {
    return { binary: null, reason: `the electron package failed to load: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function findDisplay(): string | null {
  if (process.platform !== 'linux') return null;
  return process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? null : 'no display (set DISPLAY, e.g. run under xvfb-run)';
}

const target = chooseLaunchTarget({ root, platform: process.platform, exists: existsSync, override: process.env.KEEL_ELECTRON_APP, electron: findElectron() });
const skipReason = target.kind === 'none' ? target.reason : findDisplay();
if (skipReason) console.log(`Electron launch test skipped: ${skipReason}`);
else if (target.kind !== 'none')
  console.log(`Electron launch test runs the ${target.kind === 'packaged' ? 'packaged test build' : 'dev build'}: ${target.executable}`);

/** Where the sandbox works for Node, the app's (a utility process: its RunAsNode fuse is off) must too. */
const sandboxExpected = !skipReason && process.platform !== 'win32' && (await sandboxWorksHere("the Electron launch test's sandbox check"));

const TASK = 'Write hello.txt';
const STEPS = ['Write hello.txt', 'Say what was done'];
const ADDED = 'Read hello.txt back';
const HELLO = 'hello from the Keel window\n';

type Probe = Record<string, string>;

describe.skipIf(Boolean(skipReason))('the Electron app', () => {
  let app: ElectronApplication;
  let page: Page;
  let model: ScriptedAnthropic;
  const errors: string[] = [];
  let home = '';
  let folder = '';
  const marker = uniqueMarker();

  beforeAll(async () => {
    if (target.kind === 'none') return;
    home = realpathSync(mkdtempSync(join(tmpdir(), 'keel-electron-')));
    folder = join(home, 'launch-project');
    mkdirSync(folder);
    if (target.kind === 'dev' && !existsSync(join(root, 'out', 'main', 'index.js'))) {
      execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
    }
    model = await startScriptedAnthropic({
      apiKey: 'k',
      script: [
        reply(
          text('A plan first.'),
          toolUse('todo', {
            items: [
              { content: STEPS[0], status: 'in_progress', activeForm: 'Writing hello.txt' },
              { content: STEPS[1], status: 'pending' },
            ],
          }),
        ),
        reply(toolUse('write_file', { path: 'hello.txt', content: HELLO })),
        reply(toolUse('todo', { items: STEPS.map((content) => ({ content, status: 'completed' })) })),
        reply(text('I wrote hello.txt.')),
      ],
    });
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'KEEL_MODEL', 'ANTHROPIC_AUTH_TOKEN']) delete env[name];
    // userData (settings, sessions) under the test's home on every OS, never the real one.
    Object.assign(env, {
      HOME: home,
      XDG_CONFIG_HOME: home,
      APPDATA: home,
      KEEL_HOME: home,
      ELECTRON_ENABLE_LOGGING: '1',
      ANTHROPIC_BASE_URL: model.baseURL,
      ANTHROPIC_API_KEY: 'k',
    });
    app = await _electron.launch({
      executablePath: target.executable,
      args: [...target.args, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      cwd: root,
      env,
      timeout: 60_000,
    });
    page = await app.firstWindow();
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    await page.waitForLoadState('domcontentloaded');
  }, 320_000);

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await model?.close();
    killProcessesWith(marker);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('ships with the production fuses, but the inspect one a test build keeps', { timeout: 30_000 }, async () => {
    if (target.kind !== 'packaged') {
      console.log('Fuse check skipped: the dev build runs the unfused Electron binary.');
      return;
    }
    const wire = await getCurrentFuseWire(target.executable);
    const DISABLE = 48;
    const ENABLE = 49;
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(DISABLE);
    expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ENABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(ENABLE);
  });

  it('opens a window on keel://app that is isolated, sandboxed, without Node, and renders', { timeout: 60_000 }, async () => {
    // Not file://: the page has an origin of its own, and its module script and CSS loaded.
    expect(page.url()).toBe('keel://app/index.html');
    await page.getByRole('heading', { name: 'Open a folder to start' }).waitFor({ timeout: 30_000 });

    const title = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle() ?? '');
    expect(title).toContain('Keel');

    // The window's effective preferences, where this Electron still reports them (an undocumented call).
    const preferences = await app.evaluate(({ BrowserWindow }) => {
      type Prefs = { contextIsolation?: boolean; sandbox?: boolean; nodeIntegration?: boolean } | null;
      const contents = BrowserWindow.getAllWindows()[0]?.webContents as unknown as { getLastWebPreferences?: () => Prefs } | undefined;
      const prefs = contents?.getLastWebPreferences?.();
      return prefs ? { contextIsolation: prefs.contextIsolation, sandbox: prefs.sandbox, nodeIntegration: prefs.nodeIntegration } : null;
    });
    if (preferences) expect(preferences).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });

    // What the page itself can reach: the bridge, and nothing of Node.
    const probe = await page.evaluate((): Probe => {
      const page = globalThis as unknown as Record<string, unknown>;
      return {
        require: typeof page.require,
        process: typeof page.process,
        module: typeof page.module,
        Buffer: typeof page.Buffer,
        keelIpc: typeof page.keelIpc,
        origin: location.origin,
        secure: String(isSecureContext),
      };
    });
    expect(probe).toEqual({
      require: 'undefined',
      process: 'undefined',
      module: 'undefined',
      Buffer: 'undefined',
      keelIpc: 'object',
      origin: 'keel://app',
      secure: 'true',
    });

    // The bridge speaks the contract and nothing else.
    const answers = await page.evaluate(async () => {
      const ipc = (globalThis as unknown as { keelIpc: { request(channel: string, input: unknown): Promise<unknown> } }).keelIpc;
      return { info: await ipc.request('app.info', {}), unknown: await ipc.request('fs.readFile', {}) };
    });
    expect(answers.info).toMatchObject({ ok: true, value: { host: 'electron', nativeFolderPicker: true } });
    expect(answers.unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });

    // The scheme's own answers: the app's headers, and nothing outside out/renderer.
    const served = await page.evaluate(async () => {
      const index = await fetch('/index.html');
      return {
        csp: index.headers.get('content-security-policy'),
        nosniff: index.headers.get('x-content-type-options'),
        encoded: (await fetch('/..%2fpackage.json')).status,
        listing: (await fetch('/assets/')).status,
      };
    });
    expect(served).toEqual({ csp: contentSecurityPolicy({ connect: [] }), nosniff: 'nosniff', encoded: 400, listing: 400 });

    // Navigation away from keel://app is refused.
    await page.evaluate(() => void (location.href = 'https://example.com/'));
    await page.waitForTimeout(500);
    expect(page.url()).toBe('keel://app/index.html');
    expect(errors).toEqual([]);
  });

  it('opens a folder through the native picker and the File menu has Open Folder…', { timeout: 60_000 }, async () => {
    // The picker is native UI Playwright cannot click: main's dialog answers with the folder.
    const stubbed = await app.evaluate(({ dialog }, picked) => {
      const stub = (async () => ({ canceled: false, filePaths: [picked] })) as typeof dialog.showOpenDialog;
      dialog.showOpenDialog = stub;
      return dialog.showOpenDialog === stub;
    }, folder);
    expect(stubbed, 'this Electron does not let main replace dialog.showOpenDialog').toBe(true);
    const menuItem = await app.evaluate(({ Menu }) => {
      const item = Menu.getApplicationMenu()?.getMenuItemById('open-folder');
      return item ? { label: item.label, accelerator: item.accelerator ?? '' } : null;
    });
    expect(menuItem).toEqual({ label: 'Open Folder…', accelerator: 'CmdOrCtrl+O' });
    await page.getByRole('button', { name: 'Open Folder…' }).first().click();
    await page.getByRole('textbox', { name: 'Message to the agent' }).waitFor({ timeout: 30_000 });
    const title = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle() ?? '');
    expect(title).toContain('launch-project');
    if (sandboxExpected) {
      const sandbox = page.locator('.status-sandbox');
      await expect.poll(() => sandbox.getAttribute('data-sandbox'), { timeout: 30_000 }).not.toBe('checking');
      expect(await sandbox.getAttribute('data-sandbox'), (await sandbox.textContent()) ?? '').toBe('on');
    }
  });

  it('runs a task against the scripted model, then the person edits the plan', { timeout: 120_000 }, async () => {
    const composer = page.getByRole('textbox', { name: 'Message to the agent' });
    await composer.fill(TASK);
    await composer.press('Enter');
    await page.locator('section.chat-panel .chat-assistant').filter({ hasText: 'I wrote hello.txt.' }).waitFor({ timeout: 60_000 });
    await board(page).waitFor();
    expect(await stepTexts(page)).toEqual(STEPS);
    expect(readFileSync(join(folder, 'hello.txt'), 'utf8')).toBe(HELLO);
    expect(model.errors).toEqual([]);

    await addStep(page, ADDED);
    await waitForNewVersion(page, 0);
    expect(await stepTexts(page)).toEqual([...STEPS, ADDED]);
    await screenshot(page, process.env.KEEL_ELECTRON_SCREENSHOT ?? `electron-${target.kind}-workbench`, { always: true });
    expect(errors).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('quits with a shell running and leaves none of its processes behind', { timeout: 60_000 }, async () => {
    const started = await page.evaluate(async (mark) => {
      const ipc = (globalThis as unknown as { keelIpc: { request(channel: string, input: unknown): Promise<{ ok: boolean; value?: { id: string } }> } })
        .keelIpc;
      const tab = await ipc.request('terminal.create', { cols: 80, rows: 24 });
      if (!tab.ok || !tab.value) return false;
      await ipc.request('terminal.input', { id: tab.value.id, data: `sleep 300.${mark} & nohup sleep 301.${mark} >/dev/null 2>&1 &\r` });
      return true;
    }, marker);
    expect(started).toBe(true);
    await expect.poll(() => processesWith(marker).length, { timeout: 20_000 }).toBe(2);
    await app.close();
    expect(processesWith(marker)).toEqual([]);
  });
});
