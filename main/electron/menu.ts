import { Menu } from 'electron';
import { menuTemplate } from './menuTemplate';

export function installMenu(openFolder: () => void): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, openFolder)));
}
