import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';

/** The one window, with the security checklist's defaults: isolated, sandboxed, no Node, no navigation. */
export function createMainWindow(outDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Keel',
    show: false,
    webPreferences: {
      preload: join(outDir, 'preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  // No remote content: nothing may navigate the window away or open another one.
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.on('will-redirect', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  void window.loadFile(join(outDir, 'renderer/index.html'));
  return window;
}
