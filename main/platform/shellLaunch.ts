import { accessSync, constants } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { POWERSHELL_PRELUDE } from './powershell';
import { findOnPath } from './findOnPath';

/** The program a terminal tab runs, its arguments, and the tab's title. */
export interface ShellLaunch {
  file: string;
  args: string[];
  /** e.g. `zsh`, `bash`, `powershell`. */
  title: string;
}

/** Shells known to take `-l` (start as a login shell). */
const LOGIN_FLAG_SHELLS = new Set(['bash', 'zsh', 'fish', 'sh', 'dash', 'ksh', 'mksh', 'yash']);

/**
 * The person's own shell: $SHELL when it names a program that can run, else bash, else sh.
 * Checked here because on POSIX node-pty execs in the forked child, where a missing shell shows
 * only as an exit code 1 and a line of perror in the tab.
 *
 * No `-i`: a shell on a terminal is interactive by itself. macOS: a login shell (`-l`), as
 * Terminal.app, iTerm and VS Code start it, because there the profile (path_helper) is what sets
 * PATH up. Linux: an interactive non-login shell, as GNOME Terminal, Konsole and VS Code start
 * it; a login shell there would skip ~/.bashrc wherever ~/.bash_profile does not source it. The
 * login environment comes instead from the login-shell PATH Keel resolves (see loginPath).
 * Windows: PowerShell in ConPTY, pwsh (7) when it is on PATH; the person's profile loads, then
 * the UTF-8 prelude the agent's commands get (see platform/powershell), and the shell stays open.
 */
export function shellLaunch(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  find: (program: string) => string | undefined = findOnPath,
): ShellLaunch {
  if (platform === 'win32') {
    const pwsh = find('pwsh.exe');
    const args = ['-NoLogo', '-NoExit', '-EncodedCommand', Buffer.from(POWERSHELL_PRELUDE, 'utf16le').toString('base64')];
    return pwsh ? { file: pwsh, args, title: 'pwsh' } : { file: 'powershell.exe', args, title: 'powershell' };
  }
  const file = usableShell(env.SHELL) ?? find('bash') ?? '/bin/sh';
  const title = basename(file);
  const args = platform === 'darwin' && LOGIN_FLAG_SHELLS.has(title) ? ['-l'] : [];
  return { file, args, title };
}

function usableShell(shell: string | undefined): string | undefined {
  if (!shell || !isAbsolute(shell)) return undefined;
  try {
    accessSync(shell, constants.X_OK);
    return shell;
  } catch {
    return undefined;
  }
}
