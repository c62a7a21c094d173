import { LOGIN_PATH_TIMEOUT_MS, RESOLVING_ENVIRONMENT_VARIABLE, launchedFromDesktop, resolveLoginShellPath } from './loginPath';
import { shellLaunch } from './shellLaunch';
import { fallbackLocale } from './locale';

/** When the login shell's PATH is used: 'auto' when Keel looks started from the desktop, or always, or never. */
export type LoginPathMode = 'auto' | 'always' | 'never';

export interface LoginPathRequest {
  mode?: LoginPathMode;
  /** The shell to ask; the person's own (see shellLaunch) by default. */
  shell?: string;
  platform?: NodeJS.Platform;
  log?: (message: string) => void;
}

let shared: Promise<string | undefined> | undefined;
let ownPathFirst = false;

/**
 * Called by `keel web` and `keel run`: started from a shell or a script, the PATH they were given
 * is deliberate (an activated venv, a CI step's toolchain) and wins over the login shell's; the
 * login entries only fill in what it lacks. The desktop app keeps the login PATH first, since its
 * own PATH from the Dock is the bare system one.
 */
export function preferOwnPath(): void {
  ownPathFirst = true;
}

/**
 * The person's login-shell PATH, resolved once per process and shared by every terminal tab and
 * every command the agent runs: started from the Dock, Keel's own PATH is
 * `/usr/bin:/bin:/usr/sbin:/sbin`, without Homebrew, nvm or pyenv, so `npm test` would be
 * "command not found". Undefined when it is not wanted (Windows, where PATH comes from the
 * registry for every program alike; a start from a terminal, whose PATH is kept) or could not
 * be read within LOGIN_PATH_TIMEOUT_MS. Call it early (the core does, at startup) so that the
 * first command does not wait for it.
 */
export function loginShellPath(request: LoginPathRequest = {}): Promise<string | undefined> {
  const platform = request.platform ?? process.platform;
  const mode = request.mode ?? 'auto';
  if (platform === 'win32' || mode === 'never') return Promise.resolve(undefined);
  // Once resolved (at startup, or by a terminal asked to always use it), every command shares it.
  if (shared) return shared;
  if (mode === 'auto' && !launchedFromDesktop(platform)) return Promise.resolve(undefined);
  const shell = request.shell ?? shellLaunch(process.env, platform).file;
  shared ??= resolveLoginShellPath({ shell }).then((path) => {
    if (path === undefined) {
      request.log?.(
        `warning: could not read the PATH of your login shell (${shell} -ilc) within ${LOGIN_PATH_TIMEOUT_MS / 1000} s; ` +
          `terminals and the agent's commands get Keel's own PATH. Make your shell's startup files faster, or skip slow parts when ${RESOLVING_ENVIRONMENT_VARIABLE} is set.`,
      );
    }
    return path;
  });
  return shared;
}

/**
 * One PATH from two: every entry of `first`, then those of `second` that it lacks, so nothing
 * either held is lost. The desktop app puts the login shell's first (what the person's terminal
 * finds first); `keel web`/`keel run` put their own first (see preferOwnPath).
 */
export function mergePath(first: string | undefined, second: string | undefined, delimiter: string): string | undefined {
  if (first === undefined) return second;
  const entries = [...first.split(delimiter), ...(second ?? '').split(delimiter)].filter((entry) => entry !== '');
  return [...new Set(entries)].join(delimiter);
}

/** What the agent's commands get over Keel's environment: the login PATH and a UTF-8 locale. */
export function commandEnvironment(
  base: NodeJS.ProcessEnv,
  loginPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  const delimiter = platform === 'win32' ? ';' : ':';
  const path = ownPathFirst ? mergePath(base.PATH, loginPath, delimiter) : mergePath(loginPath, base.PATH, delimiter);
  if (loginPath !== undefined && path !== undefined) env.PATH = path;
  const lang = fallbackLocale(base, platform);
  if (lang !== undefined) env.LANG = lang;
  return env;
}
