import { EventEmitter } from 'node:events';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { bringToFront, claimSingleInstance, createQuitSequence, folderArgument, type FocusableWindow } from '../../../main/electron/lifecycle';
import { menuTemplate, openFolderFromMenu } from '../../../main/electron/menuTemplate';
import { PROMPT, TerminalHarness, isolateShellEnvironment, waitFor } from '../../integration/terminal/support';
import { killProcessesWith, processesWith, uniqueMarker } from '../tools/bash/support';

// The Electron host's lifecycle without Electron: stand-ins for `app` and the window (recording
// what was asked of them), a real KeelCore, real folders and real shells.

const restoreEnvironment = isolateShellEnvironment();
afterAll(restoreEnvironment);
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDir = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

class WindowStandIn implements FocusableWindow {
  readonly calls: string[] = [];
  constructor(
    private minimized = false,
    private destroyed = false,
  ) {}
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  restore = () => {
    this.minimized = false;
    this.calls.push('restore');
  };
  show = () => void this.calls.push('show');
  focus = () => void this.calls.push('focus');
}

/** An `app` that holds (or not) the single-instance lock and lets the test start a second Keel. */
class InstanceAppStandIn extends EventEmitter {
  quits = 0;
  constructor(private readonly lock: boolean) {
    super();
  }
  requestSingleInstanceLock = () => this.lock;
  quit = () => void this.quits++;
  startSecond(argv: string[], workingDirectory: string) {
    this.emit('second-instance', {}, argv, workingDirectory);
  }
}

describe('single instance', () => {
  it('a second Keel quits at once and registers nothing', () => {
    const app = new InstanceAppStandIn(false);
    expect(
      claimSingleInstance(
        app,
        () => null,
        () => undefined,
        true,
      ),
    ).toBe(false);
    expect(app.quits).toBe(1);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('starting a second one brings the first to the front (restored, shown, focused)', () => {
    const app = new InstanceAppStandIn(true);
    const window = new WindowStandIn(true);
    const opened: string[] = [];
    expect(
      claimSingleInstance(
        app,
        () => window,
        (folder) => opened.push(folder),
        true,
      ),
    ).toBe(true);
    expect(app.quits).toBe(0);
    app.startSecond(['/opt/Keel/keel'], '/home/me');
    expect(window.calls).toEqual(['restore', 'show', 'focus']);
    expect(opened).toEqual([]);
  });

  it('opens, in the first window, the folder the second was started with (relative to where it started)', () => {
    const app = new InstanceAppStandIn(true);
    const opened: string[] = [];
    claimSingleInstance(
      app,
      () => new WindowStandIn(),
      (folder) => opened.push(folder),
      true,
    );
    app.startSecond(['/opt/Keel/keel', '--enable-logging', 'project'], '/home/me/code');
    app.startSecond(['/opt/Keel/keel', '/srv/other'], '/home/me');
    expect(opened).toEqual(['/home/me/code/project', '/srv/other']);
  });

  it('does nothing to a window that is gone or not made yet', () => {
    const destroyed = new WindowStandIn(true, true);
    bringToFront(destroyed);
    bringToFront(null);
    expect(destroyed.calls).toEqual([]);
    const normal = new WindowStandIn();
    bringToFront(normal);
    expect(normal.calls).toEqual(['show', 'focus']);
  });
});

describe('the folder on the command line', () => {
  it('is the first plain argument of a packaged app, after the entry of an unpackaged one', () => {
    expect(folderArgument(['/opt/Keel/keel', '/work/project'], true)).toBe('/work/project');
    expect(folderArgument(['/opt/Keel/keel'], true)).toBeNull();
    expect(folderArgument(['/opt/Keel/keel', '--no-sandbox', '--inspect=0', 'project'], true)).toBe('project');
    // As Playwright starts the dev build: its switches first, then the app's entry, then ours.
    expect(folderArgument(['/x/electron', '--inspect=0', '--remote-debugging-port=0', '/repo/out/main/index.js', '/work/project'], false)).toBe(
      '/work/project',
    );
    expect(folderArgument(['/x/electron', '--inspect=0', '--remote-debugging-port=0', '/repo/out/main/index.js'], false)).toBeNull();
    expect(folderArgument(['/x/electron', '.'], false)).toBeNull();
  });
});

describe('the menu', () => {
  const labels = (platform: NodeJS.Platform) => {
    const file = menuTemplate(platform, () => undefined).find((item) => item.label === 'File');
    return (file?.submenu as { label?: string; role?: string; accelerator?: string }[]).map((item) => item.label ?? item.role ?? 'separator');
  };

  it('has File › Open Folder… (Ctrl/Cmd+O), then Quit, or Close on a Mac', () => {
    expect(labels('linux')).toEqual(['Open Folder…', 'separator', 'quit']);
    expect(labels('win32')).toEqual(['Open Folder…', 'separator', 'quit']);
    expect(labels('darwin')).toEqual(['Open Folder…', 'separator', 'close']);
    expect(menuTemplate('darwin', () => undefined)[0]).toEqual({ role: 'appMenu' });
    expect(menuTemplate('linux', () => undefined).some((item) => item.role === 'appMenu')).toBe(false);
  });

  it('Open Folder… runs the picker through the core: the folder opens and the window is told', async () => {
    const folder = tempDir('keel-menu-ws-');
    let picks: (string | null)[] = [folder];
    const core = new KeelCore({ dataDir: tempDir('keel-menu-data-'), host: 'electron', version: 'test', chooseFolder: async () => picks.shift() ?? null });
    cleanups.push(() => core.dispose());
    const told: unknown[] = [];
    core.onEvent((event) => event.channel === 'workspace.changed' && told.push(event.payload));
    const errors: string[] = [];
    let clicked: Promise<void> | undefined;
    const item = (
      menuTemplate(
        'linux',
        () =>
          (clicked = openFolderFromMenu(
            () => core.handlers['workspace.choose']({}),
            (message) => errors.push(message),
          )),
      )[0]!.submenu as { click?: () => void }[]
    )[0]!;
    item.click?.();
    await clicked;
    expect(errors).toEqual([]);
    expect(told).toEqual([expect.objectContaining({ path: folder })]);
    expect(core.currentSession?.workspace).toBe(folder);

    // Cancelled: nothing happens, nothing is said.
    picks = [null];
    item.click?.();
    await clicked;
    expect(errors).toEqual([]);
    expect(told).toHaveLength(1);
  });

  it('Open Folder… shows why a folder cannot be opened, since the menu has no other place to say it', async () => {
    const file = join(tempDir('keel-menu-file-'), 'notes.txt');
    writeFileSync(file, 'not a folder');
    const core = new KeelCore({ dataDir: tempDir('keel-menu-data-'), host: 'electron', version: 'test', chooseFolder: async () => file });
    cleanups.push(() => core.dispose());
    const errors: string[] = [];
    await openFolderFromMenu(
      () => core.handlers['workspace.choose']({}),
      (message) => errors.push(message),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(file);
    const throwing = new KeelCore({
      dataDir: tempDir('keel-menu-data-'),
      host: 'electron',
      version: 'test',
      chooseFolder: () => Promise.reject(new Error('the portal is not running')),
    });
    cleanups.push(() => throwing.dispose());
    await openFolderFromMenu(
      () => throwing.handlers['workspace.choose']({}),
      (message) => errors.push(message),
    );
    expect(errors[1]).toContain('the portal is not running');
  });
});

/** Electron's quit, as far as before-quit goes: each quit() emits it, and quits unless prevented. */
class QuittingAppStandIn extends EventEmitter {
  quitted = 0;
  quit = () => {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.quitted++;
  };
}

describe('quitting', () => {
  it('with shells running: waits until every shell and its processes are gone, then quits once', { timeout: 60_000 }, async () => {
    const h = new TerminalHarness();
    cleanups.push(() => h.close());
    const marker = uniqueMarker();
    cleanups.push(() => killProcessesWith(marker));
    const tabs = [await h.create(), await h.create()];
    for (const [index, tab] of tabs.entries()) {
      await h.waitForOutput(tab.id, PROMPT);
      await h.type(tab.id, `sleep 30${index}.${marker} & nohup sleep 31${index}.${marker} >/dev/null 2>&1 &\r`);
      await h.type(tab.id, `sleep 32${index}.${marker}\r`);
    }
    await waitFor(() => processesWith(marker).length === 6, 'the six sleeps to run', 15_000, 100);

    const app = new QuittingAppStandIn();
    let disposals = 0;
    const logged: string[] = [];
    let processesAtQuit: string[] | null = null;
    app.on(
      'before-quit',
      createQuitSequence({
        dispose: () => (disposals++, h.core.dispose()),
        quit: () => {
          processesAtQuit = processesWith(marker);
          app.quit();
        },
        log: (message) => logged.push(message),
      }),
    );
    app.quit();
    app.quit(); // pressed twice: still one shutdown
    expect(app.quitted).toBe(0);
    await waitFor(() => app.quitted > 0, 'Keel to quit', 30_000, 50);
    expect(app.quitted).toBe(1);
    expect(disposals).toBe(1);
    expect(processesAtQuit).toEqual([]);
    expect(logged).toEqual([]);
    // After quitting, nothing new starts.
    expect(await h.core.handlers['terminal.create']({ cols: 80, rows: 24 })).toMatchObject({ ok: false });
  });

  it('quits anyway, and says so, when the shutdown fails or never ends', { timeout: 30_000 }, async () => {
    for (const dispose of [() => Promise.reject(new Error('kill EPERM')), () => new Promise<void>(() => undefined)]) {
      const app = new QuittingAppStandIn();
      const logged: string[] = [];
      app.on('before-quit', createQuitSequence({ dispose, quit: () => app.quit(), log: (message) => logged.push(message), deadlineMs: 200 }));
      app.quit();
      await waitFor(() => app.quitted > 0, 'Keel to quit', 20_000, 20);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/EPERM|had not ended/);
    }
  });
});
