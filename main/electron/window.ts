import { BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { APP_ENTRY_URL, isAppUrl } from './appProtocol';

/**
 * The one window, with the security checklist's defaults: isolated, sandboxed, no Node. Its page
 * comes from keel://app (appProtocol.ts), never file://; it may not leave that origin.
 */
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
  window.webContents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  void window.loadURL(APP_ENTRY_URL);
  return window;
}
