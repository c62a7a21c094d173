import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isatty } from 'node:tty';
import { killProcessTree } from './killTree';
import { TERMINAL_MARKER_VARIABLE } from './processMarker';

/** A login shell whose rc files take longer than this is given up on; Keel's own PATH is used. */
export const LOGIN_PATH_TIMEOUT_MS = 3000;

/**
 * Set while Keel reads the login PATH, so that rc files can skip slow or interactive work (VS Code
 * sets VSCODE_RESOLVING_ENVIRONMENT for the same reason).
 */
export const RESOLVING_ENVIRONMENT_VARIABLE = 'KEEL_RESOLVING_ENVIRONMENT';

/** rc files can print anything (banners, fortunes, errors); more than this is not read. */
const MAX_PROBE_OUTPUT_CHARS = 1024 * 1024;

/**
 * Whether the person's login-shell PATH must be looked up: when Keel was started from a dock, a
 * launcher or a file manager, its environment is the desktop session's, without what ~/.zprofile
 * or ~/.bashrc add (Homebrew, nvm, pyenv, ~/.local/bin). Started from a terminal (`keel web`,
 * `npm start`), it already has the PATH the person works with, venvs included, and that one is
 * kept. "From a terminal" is judged by stdin being a TTY. Never on Windows, where PATH comes from
 * the registry for every program alike.
 */
export function launchedFromDesktop(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32' && !isatty(0);
}

/**
 * The text between the first two occurrences of `marker` in `output`, or undefined when there
 * are not two or nothing is between them. The markers fence the PATH off from whatever the rc
 * files print before and after it.
 */
export function extractMarkedPath(output: string, marker: string): string | undefined {
  const start = output.indexOf(marker);
  if (start === -1) return undefined;
  const from = start + marker.length;
  const end = output.indexOf(marker, from);
  if (end === -1) return undefined;
  const path = output.slice(from, end);
  return path.trim() === '' ? undefined : path;
}

export interface LoginPathProbe {
  /** Absolute path of the person's shell. */
  shell: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * Runs the person's shell as an interactive login shell (`-ilc`), as their terminal would start
 * it, and returns the PATH it ends up with; undefined when the shell fails, prints no marked
 * PATH (a shell that does not understand `-ilc` or printf) or takes longer than the timeout.
 * Never rejects.
 *
 * The shell runs in a session of its own (detached): an interactive shell takes over the
 * foreground of the terminal it finds, and if Keel has one that would stop Keel itself. One that
 * is still running at the timeout is killed with everything it started.
 */
export function resolveLoginShellPath({ shell, env = process.env, timeoutMs = LOGIN_PATH_TIMEOUT_MS }: LoginPathProbe): Promise<string | undefined> {
  // Printed in two halves, so that a shell echoing its command line (`set -v`) cannot fake it.
  const [head, tail] = [`KEEL${randomUUID().slice(0, 8)}`, `${randomUUID().slice(0, 8)}PATH`];
  const marker = head + tail;
  const command = `printf '%s%s%s%s%s' '${head}' '${tail}' "$PATH" '${head}' '${tail}'`;
  const runMarker = randomUUID();
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const settle = (path: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve(path);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(shell, ['-ilc', command], {
        env: { ...env, [RESOLVING_ENVIRONMENT_VARIABLE]: '1', [TERMINAL_MARKER_VARIABLE]: runMarker },
        stdio: ['ignore', 'pipe', 'ignore'],
        detached: true,
        windowsHide: true,
      });
    } catch {
      settle(undefined);
      return;
    }
    const timer = setTimeout(() => {
      settle(extractMarkedPath(output, marker));
      const running = child.exitCode === null && child.signalCode === null;
      if (running && child.pid !== undefined) {
        void killProcessTree(child.pid, { marker: `${TERMINAL_MARKER_VARIABLE}=${runMarker}`, graceMs: 200 }).catch(() => undefined);
      }
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (output.length < MAX_PROBE_OUTPUT_CHARS) output += chunk;
      // Answer as soon as the PATH is out: logout files, or a daemon an rc file started that
      // holds the pipe, must not make every first terminal wait.
      const path = extractMarkedPath(output, marker);
      if (path !== undefined) settle(path);
    });
    child.on('error', () => settle(undefined));
    child.on('close', () => {
      clearTimeout(timer);
      settle(extractMarkedPath(output, marker));
    });
  });
}
