import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

// Launches the real Electron app. The electron package downloads its binary on first use; on a
// machine that has none (offline, or installed without it) this test is skipped and says why.

const root = fileURLToPath(new URL('../..', import.meta.url));
const mainFile = join(root, 'out', 'main', 'index.js');

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

const found = findElectron();
const skipReason = found.binary ? findDisplay() : found.reason;
const binary = skipReason ? null : found.binary;
if (skipReason) console.log(`Electron launch test skipped: ${skipReason}`);

type Probe = Record<string, string>;

describe('the Electron app', () => {
  it.skipIf(!binary)(
    'opens a Keel window that is isolated, sandboxed and without Node',
    async () => {
      if (!binary) return;
      if (!existsSync(mainFile)) execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
      const home = mkdtempSync(join(tmpdir(), 'keel-electron-'));
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
      // userData (sessions) goes to $XDG_CONFIG_HOME/<app> on Linux: keep it out of the real home.
      Object.assign(env, { KEEL_HOME: home, XDG_CONFIG_HOME: home, HOME: home, ELECTRON_ENABLE_LOGGING: '1' });
      const isRoot = process.getuid?.() === 0;
      const app = await _electron.launch({
        executablePath: binary,
        args: [mainFile, ...(isRoot ? ['--no-sandbox'] : [])],
        cwd: root,
        env,
        timeout: 60_000,
      });
      try {
        const page = await app.firstWindow();
        await page.waitForLoadState('domcontentloaded');

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
          };
        });
        expect(probe).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', Buffer: 'undefined', keelIpc: 'object' });

        // The bridge speaks the contract and nothing else.
        const answers = await page.evaluate(async () => {
          const ipc = (globalThis as unknown as { keelIpc: { request(channel: string, input: unknown): Promise<unknown> } }).keelIpc;
          return { info: await ipc.request('app.info', {}), unknown: await ipc.request('fs.readFile', {}) };
        });
        expect(answers.info).toMatchObject({ ok: true, value: { host: 'electron' } });
        expect(answers.unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
      } finally {
        await app.close();
        rmSync(home, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
