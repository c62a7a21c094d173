import type { BrowserWindow} from 'electron';
import { app, dialog, ipcMain } from 'electron';
import { fileURLToPath } from 'node:url';
import { workspaceTools } from './agent/workspaceTools';
import { KeelCore } from './api/core';
import { bindIpc, forwardEvents } from './electron/ipc';
import { forwardTerminalOutput, receiveTerminalAcks } from './electron/terminalIpc';
import { createSafeStorageKeyStore } from './electron/keyStore';
import { installMenu } from './electron/menu';
import { createMainWindow } from './electron/window';

// The Electron host, kept thin: window, menu, dialog and lifecycle. Everything else is the core.
const outDir = fileURLToPath(new URL('..', import.meta.url));
let window: BrowserWindow | null = null;
let keel: KeelCore | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });

  app.whenReady().then(async () => {
    const chooseFolder = async (): Promise<string | null> => {
      const options = { title: 'Open Folder', properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[] };
      const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    };
    const dataDir = app.getPath('userData');
    const core = new KeelCore({
      dataDir,
      host: 'electron',
      version: app.getVersion(),
      chooseFolder,
      tools: workspaceTools,
      keyStore: await createSafeStorageKeyStore(dataDir),
      log: console.warn,
    });
    keel = core;
    try {
      await core.init();
    } catch (error) {
      console.warn(`Keel could not read its settings: ${(error as Error).message}`);
    }
    core.onEvent((event) => {
      if (event.channel === 'workspace.changed') window?.setTitle(event.payload ? `${event.payload.name} — Keel (${event.payload.path})` : 'Keel');
    });
    bindIpc(ipcMain, core, (sender) => sender === window?.webContents);
    forwardEvents(core, () => window?.webContents ?? null);
    forwardTerminalOutput(core, () => window?.webContents ?? null);
    receiveTerminalAcks(ipcMain, core.terminals, (sender) => sender === window?.webContents);
    installMenu(() => void core.handlers['workspace.choose']({}));

    const folderArg = process.argv.slice(app.isPackaged ? 1 : 2).find((arg) => !arg.startsWith('-'));
    if (folderArg) {
      const opened = core.openWorkspace(folderArg);
      if (!opened.ok) console.warn(`Keel could not open ${folderArg}: ${opened.error.message}`);
    }
    window = createMainWindow(outDir);
    window.on('closed', () => (window = null));
  });

  app.on('window-all-closed', () => app.quit());

  // Quitting kills the person's shells and every process they started: wait for that once.
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed || !keel) return;
    event.preventDefault();
    disposed = true;
    void keel.dispose().finally(() => app.quit());
  });
}
