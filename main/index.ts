import type { BrowserWindow } from 'electron';
import { app, dialog, ipcMain, protocol, utilityProcess } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceTools } from './agent/workspaceTools';
import { KeelCore } from './api/core';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './electron/appProtocol';
import { bindIpc, forwardEvents } from './electron/ipc';
import { forwardTerminalOutput, receiveTerminalAcks } from './electron/terminalIpc';
import { createSafeStorageKeyStore } from './electron/keyStore';
import { claimSingleInstance, createQuitSequence, folderArgument } from './electron/lifecycle';
import { installMenu } from './electron/menu';
import { openFolderFromMenu } from './electron/menuTemplate';
import { utilityHelperLauncher } from './electron/utilityHelper';
import { createMainWindow } from './electron/window';

// The Electron host, kept thin: window, menu, dialog and lifecycle. Everything else is the core.
const outDir = fileURLToPath(new URL('..', import.meta.url));
let window: BrowserWindow | null = null;
let keel: KeelCore | null = null;

// The window's own origin (keel://app); a scheme can only be made privileged before `ready`.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

/** Said where the person looks: the window's warning box (the menu and the command line have no other place). */
const showWarning = (message: string) => {
  console.warn(message);
  void (window ? dialog.showMessageBox(window, { type: 'warning', message }) : dialog.showMessageBox({ type: 'warning', message }));
};

/** A folder named on the command line, of this start or of a second one. */
const openFolder = (folder: string) => {
  const opened = keel?.openWorkspace(folder);
  if (opened && !opened.ok) showWarning(`Keel could not open ${folder}: ${opened.error.message}`);
};

if (claimSingleInstance(app, () => window, openFolder, app.isPackaged)) {
  app.whenReady().then(async () => {
    protocol.handle(APP_SCHEME, createAppProtocolHandler(join(outDir, 'renderer')));
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
      warmSearch: true,
      keyStore: await createSafeStorageKeyStore(dataDir),
      log: console.warn,
      sandboxLauncher: utilityHelperLauncher((modulePath, args, options) => utilityProcess.fork(modulePath, args, options)),
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
    installMenu(() => void openFolderFromMenu(() => core.handlers['workspace.choose']({}), showWarning));

    const folderArg = folderArgument(process.argv, app.isPackaged);
    if (folderArg) openFolder(folderArg);
    window = createMainWindow(outDir);
    window.on('closed', () => (window = null));
  });

  app.on('window-all-closed', () => app.quit());

  // Quitting kills the person's shells and every process they started: wait for that once.
  app.on(
    'before-quit',
    createQuitSequence({
      dispose: () => keel?.dispose() ?? Promise.resolve(),
      quit: () => app.quit(),
      log: console.warn,
    }),
  );
}
