import { fork } from 'node:child_process';
import type { HelperFile } from './helperFile';
import type { HelperMessage, HelperRequest } from './helperProtocol';

/** How the sandbox helper is started: its working directory (the workspace) and its environment. */
export interface HelperLaunch {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The running sandbox helper, whichever kind of process carries it. */
export interface HelperProcess {
  /** False once it exited (or could not start). */
  readonly running: boolean;
  send(message: HelperRequest): void;
  onMessage(listener: (message: HelperMessage) => void): void;
  /** Once, when it ends: why, in a few words ("exit 1", "SIGKILL"). */
  onExit(listener: (why: string) => void): void;
  onStderr(listener: (chunk: string) => void): void;
  kill(): void;
}

/**
 * Starts the helper. `keel web`, `keel run` and tests fork Node; the packaged Electron app cannot
 * (its RunAsNode fuse is off, so ELECTRON_RUN_AS_NODE is ignored and a fork would start a second
 * Keel), and passes a launcher over Electron's utility processes instead (main/electron/).
 */
export type HelperLauncher = (file: HelperFile, launch: HelperLaunch) => HelperProcess;

/** A Node child with an IPC channel: the helper reads `process.on('message')` and answers with `process.send`. */
export const forkNodeHelper: HelperLauncher = (file, launch) => {
  const child = fork(file.path, [], {
    cwd: launch.cwd,
    execArgv: file.execArgv,
    env: { ...launch.env, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let ended = false;
  const exitListeners: ((why: string) => void)[] = [];
  const end = (why: string) => {
    if (ended) return;
    ended = true;
    for (const listener of exitListeners) listener(why);
  };
  child.on('exit', (code, signal) => end(signal ?? `exit ${code}`));
  child.on('error', (error) => end(error.message));
  return {
    get running() {
      return !ended && child.connected;
    },
    send: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => void child.on('message', (message: HelperMessage) => listener(message)),
    onExit: (listener) => void exitListeners.push(listener),
    onStderr: (listener) => void child.stderr?.setEncoding('utf8').on('data', listener),
    kill: () => void child.kill('SIGKILL'),
  };
};
