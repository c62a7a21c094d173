import { spawn, type IPty, type IPtyForkOptions, type IWindowsPtyForkOptions } from 'node-pty';
import { ensureSpawnHelperExecutable } from './spawnHelper';

/**
 * Windows: ConPTY from the conpty.dll node-pty ships (`useConptyDll`), not the one built into
 * Windows. In that mode node-pty's kill() closes the pseudo-console itself; in the default mode
 * it forks a helper script with child_process.fork to list the console's processes, which cannot
 * work in a packaged Keel (the runAsNode fuse is off, so the app binary will not run a script),
 * and Stop, timeouts and closing a tab would throw or leave processes behind. The shipped DLL is
 * also newer than the one in older Windows 10 builds. Nothing on other platforms.
 */
export function ptyPlatformOptions(platform: NodeJS.Platform = process.platform): Pick<IWindowsPtyForkOptions, 'useConpty' | 'useConptyDll'> {
  return platform === 'win32' ? { useConpty: true, useConptyDll: true } : {};
}

/** node-pty's spawn, with this platform's options and its helper made executable first. */
export function spawnPty(file: string, args: string[], options: IPtyForkOptions | IWindowsPtyForkOptions): IPty {
  ensureSpawnHelperExecutable();
  return spawn(file, args, { ...options, ...ptyPlatformOptions() });
}

/**
 * How a command's output is read into lines: ConPTY (Windows) repaints a screen, so its output is
 * rendered in a headless terminal first; a POSIX pty passes the program's bytes through, and
 * lines are cleaned one by one (faster, and keeps every line of a flood).
 */
export function outputRendering(platform: NodeJS.Platform = process.platform): 'screen' | 'lines' {
  return platform === 'win32' ? 'screen' : 'lines';
}
