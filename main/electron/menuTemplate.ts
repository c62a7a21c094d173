import type { MenuItemConstructorOptions } from 'electron';
import type { Result } from '../../common/result';

/**
 * The application menu, as data (only a type comes from electron, so tests build it in Node).
 * A Mac has its app menu and closes windows; elsewhere File ends with Quit.
 */
export function menuTemplate(platform: NodeJS.Platform, openFolder: () => void): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        { id: 'open-folder', label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: openFolder },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}

/**
 * File › Open Folder…: the native picker through the core (which opens the folder and tells the
 * window), and the reason shown when it cannot be opened — the menu has no other place to say so.
 */
export async function openFolderFromMenu(choose: () => Result<unknown> | Promise<Result<unknown>>, showError: (message: string) => void): Promise<void> {
  try {
    const result = await choose();
    if (!result.ok) showError(result.error.message);
  } catch (error) {
    showError(`Keel could not open the folder: ${error instanceof Error ? error.message : String(error)}`);
  }
}
