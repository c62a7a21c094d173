import { LazyPart } from '../ui/lazyPart';

/** The settings dialog (and the MCP servers in it): a chunk of its own, loaded when opened or when the window is idle. */
export const settingsPart = new LazyPart('settings', () => import('./SettingsDialog'));
