import type { ForkOptions, UtilityProcess } from 'electron';
import type { HelperMessage, HelperRequest } from '../sandbox/helperProtocol';
import type { HelperLauncher, HelperProcess } from '../sandbox/helperProcess';

/** Electron's `utilityProcess.fork`, passed in so that a test can hand a stand-in. */
export type UtilityFork = (modulePath: string, args: string[], options: ForkOptions) => UtilityProcess;

/**
 * The sandbox helper as an Electron utility process: the packaged app's RunAsNode fuse is off, so
 * `child_process.fork` would start a second Keel instead of Node. The helper answers through
 * `process.parentPort` (main/sandbox/sandboxHelper.ts). Messages sent before the process has
 * started wait for it.
 */
export function utilityHelperLauncher(fork: UtilityFork): HelperLauncher {
  return (file, launch): HelperProcess => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(launch.env)) if (value !== undefined) env[name] = value;
    const child = fork(file.path, [], {
      cwd: launch.cwd,
      env,
      execArgv: file.execArgv,
      stdio: ['ignore', 'ignore', 'pipe'],
      serviceName: 'Keel sandbox helper',
    });
    let spawned = false;
    let ended = false;
    const pending: HelperRequest[] = [];
    const exitListeners: ((why: string) => void)[] = [];
    child.once('spawn', () => {
      spawned = true;
      for (const message of pending.splice(0)) child.postMessage(message);
    });
    child.once('exit', (code: number) => {
      ended = true;
      for (const listener of exitListeners) listener(`exit ${code}`);
    });
    return {
      get running() {
        return !ended;
      },
      send: (message) => {
        if (ended) return;
        if (spawned) child.postMessage(message);
        else pending.push(message);
      },
      onMessage: (listener) => void child.on('message', (message: HelperMessage) => listener(message)),
      onExit: (listener) => void exitListeners.push(listener),
      onStderr: (listener) => void child.stderr?.setEncoding('utf8').on('data', listener),
      kill: () => void child.kill(),
    };
  };
}
