import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../common/csp';
import { requestChannels } from '../../common/contract';
import { NO_ENCRYPTION_WARNING } from '../../main/electron/keyStoreFile';
import { killProcessesWith, processesWith, uniqueMarker } from '../unit/tools/bash/support';
import { sandboxWorksHere } from '../support/sandboxProbe';

/*
 * The built Electron main process (out/main/index.js), run by Node with a stand-in for the
 * electron module (standIn/electron.mjs): every line of main/index.ts and main/electron/ runs,
 * against the real core, real files and real shells; only Electron's own objects are stand-ins.
 * What only Electron can show (the real window, protocol.handle's wiring into Chromium,
 * safeStorage, native dialogs) is left to launch.test.ts.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const mainFile = join(root, 'out', 'main', 'index.js');
const register = fileURLToPath(new URL('./standIn/register.mjs', import.meta.url));
const built = existsSync(mainFile);
if (!built) console.log('Stand-in Electron host test skipped: out/main is not built (run "npm run build")');
const sandboxWorks = built && (await sandboxWorksHere("the stand-in host's sandbox test"));

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

interface Report {
  calls: string[];
  privileged?: { schemes: { scheme: string; privileges: Record<string, boolean> }[]; beforeReady: boolean };
  loadedURL?: string;
  loadedFile?: string;
  windowOptions?: { webPreferences: Record<string, unknown> };
  protocol?: Record<string, { status: number; type: string | null; csp: string | null }>;
  navigation?: Record<string, boolean>;
  windowOpen?: unknown[];
  opened: string[];
  permissionGranted?: boolean;
  ipc?: { channels: number; info: unknown; stranger: unknown; keyStorage: unknown };
  titles: string[];
  sent: { channel: string; payload: unknown }[];
  secondInstanceFocus?: string[];
  messageBoxes: string[];
  runningBeforeQuit?: number;
  processesAtQuit?: number;
  quitted?: number;
  errors: string[];
  utilityForks: { modulePath: string; cwd: string; serviceName: string }[];
  sandbox?: { state: string; via?: string; gaps?: string[]; why?: string };
  helpersBeforeQuit?: number;
  helpersAtQuit?: number;
}

function runMain(env: Record<string, string>): Promise<{ report: Report; code: number | null; stderr: string }> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-standin-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const reportFile = join(dir, 'report.json');
  const userData = join(dir, 'userData');
  mkdirSync(userData);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOME: dir, SHELL: '/bin/bash', STANDIN_REPORT: reportFile, STANDIN_USER_DATA: userData, ...env };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'NODE_OPTIONS']) delete childEnv[name];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', register, mainFile], { cwd: dir, env: childEnv, timeout: 90_000 }, (error, _stdout, stderr) => {
      const report = existsSync(reportFile)
        ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Report)
        : ({ errors: [`no report; ${error?.message ?? ''}`] } as Report);
      resolve({ report, code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

describe.skipIf(!built)('the Electron main process, with a stand-in electron', () => {
  it('serves keel://app, guards the window, answers only its window, opens folders, and quits without leaving a process', { timeout: 120_000 }, async () => {
    const workspaces = realpathSync(mkdtempSync(join(tmpdir(), 'keel-standin-ws-')));
    cleanups.push(() => rmSync(workspaces, { recursive: true, force: true }));
    const picked = join(workspaces, 'picked-project');
    const second = join(workspaces, 'second-project');
    mkdirSync(picked);
    mkdirSync(second);
    const marker = uniqueMarker();
    cleanups.push(() => killProcessesWith(marker));

    const { report, code, stderr } = await runMain({ STANDIN_PICK: picked, STANDIN_SECOND: second, STANDIN_MARKER: marker });
    expect(report.errors, stderr).toEqual([]);
    expect(code, stderr).toBe(0);

    // The scheme is privileged before ready, and handled once ready; the window loads it, not a file.
    expect(report.privileged).toEqual({
      schemes: [{ scheme: 'keel', privileges: { standard: true, secure: true, supportFetchAPI: true } }],
      beforeReady: true,
    });
    expect(report.calls.indexOf('registerSchemesAsPrivileged')).toBeLessThan(report.calls.indexOf('whenReady'));
    expect(report.calls).toContain('protocol.handle:keel');
    expect(report.loadedURL).toBe('keel://app/index.html');
    expect(report.loadedFile).toBeUndefined();
    expect(report.protocol).toEqual({
      index: { status: 200, type: 'text/html; charset=utf-8', csp: contentSecurityPolicy({ connect: [] }) },
      traversal: { status: 400, type: 'text/plain; charset=utf-8', csp: contentSecurityPolicy({ connect: [] }) },
      missing: { status: 404, type: 'text/plain; charset=utf-8', csp: contentSecurityPolicy({ connect: [] }) },
    });

    // The window: isolated, sandboxed, no Node, the built preload; it stays on keel://app.
    expect(report.windowOptions?.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(existsSync(String(report.windowOptions?.webPreferences.preload))).toBe(true);
    expect(report.navigation).toEqual({ external: true, file: true, ownOrigin: false, otherHost: true, redirect: true });
    expect(report.windowOpen).toEqual([{ action: 'deny' }, { action: 'deny' }]);
    expect(report.opened).toEqual(['https://docs.example/']);
    expect(report.permissionGranted).toBe(false);

    // IPC: every contract channel, answered for the window only; no secret store → said so.
    expect(report.ipc?.channels).toBe(requestChannels.length);
    expect(report.ipc?.info).toMatchObject({ ok: true, value: { host: 'electron', version: '0.0.0-standin', nativeFolderPicker: true } });
    expect(report.ipc?.stranger).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(report.ipc?.keyStorage).toMatchObject({ storage: 'unprotected', storageWarning: NO_ENCRYPTION_WARNING });

    // File › Open Folder…, then a second instance: brought to the front, its folder opened; a
    // folder that cannot be opened is said in a warning box.
    expect(report.titles).toContain(`picked-project — Keel (${picked})`);
    expect(report.titles).toContain(`second-project — Keel (${second})`);
    expect(report.sent.filter((event) => event.channel === 'keel:workspace.changed').map((event) => (event.payload as { path: string }).path)).toEqual([
      picked,
      second,
    ]);
    expect(report.secondInstanceFocus).toEqual(['restore', 'show', 'focus']);
    expect(report.messageBoxes).toHaveLength(1);
    expect(report.messageBoxes[0]).toContain('/nonexistent/keel-folder');

    // Quit with a shell and its background processes running: all gone before the real quit.
    expect(report.runningBeforeQuit).toBe(2);
    expect(report.processesAtQuit).toBe(0);
    expect(report.quitted).toBe(1);
    expect(processesWith(marker)).toEqual([]);
  });

  it('a second Keel quits at once, before making anything', { timeout: 60_000 }, async () => {
    const { report, code } = await runMain({ STANDIN_LOCK: 'taken' });
    expect(code).toBe(0);
    expect(report.calls).toEqual(['registerSchemesAsPrivileged', 'requestSingleInstanceLock', 'quit']);
    expect(report.quitted).toBe(1);
    expect(report.loadedURL).toBeUndefined();
  });

  it.skipIf(!sandboxWorks)(
    'checks the sandbox through a utility process in the folder (a packaged app cannot fork Node) and ends it on quit',
    { timeout: 90_000 },
    async () => {
      const workspaces = realpathSync(mkdtempSync(join(tmpdir(), 'keel-standin-ws-')));
      cleanups.push(() => rmSync(workspaces, { recursive: true, force: true }));
      const picked = join(workspaces, 'sandboxed-project');
      mkdirSync(picked);
      const { report, code, stderr } = await runMain({ STANDIN_SCENARIO: 'sandbox', STANDIN_PICK: picked, KEEL_SANDBOX: 'required' });
      expect(report.errors, stderr).toEqual([]);
      expect(code, stderr).toBe(0);
      expect(report.utilityForks).toEqual([{ modulePath: join(root, 'out', 'main', 'sandboxHelper.js'), cwd: picked, serviceName: 'Keel sandbox helper' }]);
      // Its answers came back through process.parentPort: the check (a wrapped `true`) passed.
      expect(report.sandbox).toEqual({ state: 'on', via: 'bwrap' });
      expect(report.helpersBeforeQuit).toBe(1);
      expect(report.helpersAtQuit).toBe(0);
    },
  );
});
