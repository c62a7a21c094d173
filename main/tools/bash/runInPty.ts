import { randomUUID } from 'node:crypto';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import type { IPty } from 'node-pty';
import { outputRendering, spawnPty } from '../../platform/pty';
import { endPtyProcesses } from '../../platform/ptyKill';
import { destroyQuietly } from '../../platform/ptyQuietly';
import { DEFAULT_KILL_GRACE_MS, killProcessTree } from '../../platform/killTree';
import { OutputCollector, type OutputLimits, type ShapedOutput } from './outputCollector';
import { shellInvocation, type ShellInvocation } from './shell';

export interface PtyRunOptions {
  /** Working directory; must exist. */
  cwd: string;
  /** Kill the run after this many milliseconds. Without it the run may last for ever. */
  timeoutMs?: number;
  /** Aborting kills the run (the person's Stop). */
  signal?: AbortSignal;
  /** Live output, decoded UTF-8, escape sequences intact (for a terminal view). */
  onOutput?: (chunk: string) => void;
  /** Over process.env; a value of undefined removes a variable. */
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  limits?: Partial<OutputLimits>;
  killGraceMs?: number;
  /** How to start the command; this platform's shell (see shellInvocation) by default. */
  invocation?: ShellInvocation;
  /** Read output as a rendered screen (ConPTY's repaints) or line by line; by platform (see outputRendering). */
  rendering?: 'screen' | 'lines';
}

export interface PtyRunResult {
  /** The command's output for a reader: cleaned, cut to head and tail. */
  output: ShapedOutput;
  /** Why the run ended: on its own, or killed by the timeout or the abort signal. */
  ending: 'exited' | 'timeout' | 'aborted';
  /** Exit status of the shell; null when it died of a signal or never reported. */
  exitCode: number | null;
  /** The signal that ended the shell, e.g. `SIGKILL`; null if it exited normally. */
  signal: string | null;
  durationMs: number;
  shell: ShellInvocation['name'];
}

/** Environment variable that marks every process of one run, so that its tree can be found. */
export const RUN_MARKER_VARIABLE = 'KEEL_PTY_RUN';

const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 30;
/** If the kernel reports no exit this long after the tree was killed, stop waiting for it. */
const EXIT_WAIT_AFTER_KILL_MS = 2000;

/**
 * Runs one shell command in its own pseudo-terminal (so programs behave as for a person: line
 * buffering, colours, progress bars) and resolves when the shell exits or has been killed.
 *
 * It resolves on the shell's own exit, not on the end of the pty's output: a background process
 * that keeps the terminal open (`daemon &`) must not keep the caller waiting. Processes the
 * command leaves behind on a normal exit are not killed (a started server may be the point);
 * on timeout or abort the whole tree is.
 *
 * No output is lost at the end (see holdTerminalOpen and releaseWhenDrained).
 *
 * Rejects only when the command cannot be started (missing directory, no shell).
 */
export async function runInPty(command: string, options: PtyRunOptions): Promise<PtyRunResult> {
  const started = Date.now();
  const shell = options.invocation ?? shellInvocation(command);
  const collector = new OutputCollector(options.limits);
  if (options.signal?.aborted) {
    return { output: collector.finish(), ending: 'aborted', exitCode: null, signal: null, durationMs: 0, shell: shell.name };
  }
  await assertDirectory(options.cwd);
  // ConPTY's output is read as a screen (Windows): its headless xterm.js loads only there.
  const Screen = (options.rendering ?? outputRendering()) === 'screen' ? (await import('./screenLines')).ScreenLines : undefined;
  const marker = randomUUID();
  const cols = options.cols ?? DEFAULT_COLS;
  const scriptFile = shell.scriptFile;
  if (scriptFile) await writeFile(scriptFile.path, scriptFile.bytes, { mode: 0o600 });
  const removeScript = () => (scriptFile ? rm(scriptFile.path, { force: true }).catch(() => undefined) : undefined);
  let pty: IPty;
  try {
    pty = spawnPty(shell.file, shell.args, {
      name: 'xterm-256color',
      cols,
      rows: options.rows ?? DEFAULT_ROWS,
      cwd: options.cwd,
      env: runEnvironment(options.env, marker),
      // Raw bytes (POSIX; Windows ignores this and gives strings): decoded below with one
      // streaming decoder, so a character split across two reads is joined, never replaced.
      encoding: null,
    });
  } catch (error) {
    void removeScript();
    throw new Error(`Could not start ${shell.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let heldTerminal = holdTerminalOpen(pty);
  // Once only: a descriptor number closed twice may by then be another file's.
  const releaseTerminal = () => {
    if (heldTerminal !== undefined) closeQuietly(heldTerminal);
    heldTerminal = undefined;
  };
  const drain = heldTerminal === undefined ? undefined : releaseWhenDrained(pty, releaseTerminal);
  const screen = Screen && new Screen((line) => collector.push(`${line}\n`), cols, options.rows ?? DEFAULT_ROWS);

  return new Promise<PtyRunResult>((resolve) => {
    const decoder = new TextDecoder('utf-8');
    let ending: PtyRunResult['ending'] = 'exited';
    let exit: { exitCode: number; signal?: number } | undefined;
    let killed: Promise<void> | undefined;
    let exitWait: ReturnType<typeof setTimeout> | undefined;
    let settled = false;

    const emit = (text: string) => {
      if (text === '') return;
      if (screen) screen.push(text);
      else collector.push(text);
      try {
        options.onOutput?.(text);
      } catch {
        // A failing display must not break the run's bookkeeping.
      }
    };

    const dataListener = pty.onData((data: string | Uint8Array) => {
      drain?.dataArrived();
      if (settled) return;
      emit(typeof data === 'string' ? data : decoder.decode(data, { stream: true }));
    });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(exitWait);
      options.signal?.removeEventListener('abort', onAbort);
      dataListener.dispose();
      exitListener.dispose();
      emit(decoder.decode()); // an incomplete character at the very end becomes U+FFFD
      if (!exit) destroyQuietly(pty);
      drain?.dispose();
      releaseTerminal();
      const result = {
        ending,
        exitCode: exit && !exit.signal ? exit.exitCode : null,
        signal: exit?.signal ? signalName(exit.signal) : null,
        durationMs: Date.now() - started,
        shell: shell.name,
      };
      // The screen renders asynchronously: its last lines reach the collector only after this.
      void Promise.all([screen?.finish(), removeScript()]).then(() => resolve({ output: collector.finish(), ...result }));
    };

    const exitListener = pty.onExit((event) => {
      exit = event;
      // node-pty emits the exit only after it closed its end of the pty, so no data follows it.
      if (killed) void killed.then(finish);
      else finish();
    });

    const kill = (why: 'timeout' | 'aborted') => {
      if (exit || killed) return;
      ending = why;
      const exitSeen = () => exit !== undefined;
      killed = endPtyProcesses(pty, {
        exitSeen,
        killTree: (pid) =>
          killProcessTree(pid, { marker: `${RUN_MARKER_VARIABLE}=${marker}`, graceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS, rootExited: exitSeen }),
      }).then(() => undefined);
      void killed.then(() => {
        if (!settled) exitWait = setTimeout(finish, EXIT_WAIT_AFTER_KILL_MS);
      });
    };

    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => kill('timeout'), options.timeoutMs);
    const onAbort = () => kill('aborted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The signal may have fired while the directory was checked, before the listener existed.
    if (options.signal?.aborted) onAbort();
  });
}

function runEnvironment(extra: PtyRunOptions['env'], marker: string): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  // The pty's own size is the truth; stale values inherited from a parent terminal would lie.
  delete env.COLUMNS;
  delete env.LINES;
  env.TERM = 'xterm-256color';
  env[RUN_MARKER_VARIABLE] = marker;
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
  return defined;
}

async function assertDirectory(path: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch {
    // reported below
  }
  // Checked here because on Linux node-pty changes directory in the forked child, where a
  // failure shows only as exit code 1.
  if (!isDirectory) throw new Error(`The working directory does not exist: ${path}`);
}

function signalName(signal: number): string {
  const entry = Object.entries(osConstants.signals).find(([, number]) => number === signal);
  return entry ? entry[0] : `signal ${signal}`;
}

/**
 * Opens the pty's terminal side in this process too, so it stays open after the command exits.
 *
 * On Linux, when the last process holding the terminal side exits, libuv sees the hang-up on the
 * next short read and reports end-of-file while the kernel still holds output: the end of a
 * long output is lost, in a measured 32 of 50 runs of a 100 KB print (node-pty issues #72, #85,
 * #726). With this descriptor open there is no hang-up: the reads go on to the last byte, and
 * node-pty, seeing the child reaped but the pty still open, closes it itself 200 ms later (the
 * same path as for a daemon that keeps the terminal), unless releaseWhenDrained gave it up first.
 * Opened at once after the fork, before the shell has even started. Not on Windows, where ConPTY has no such side.
 */
function holdTerminalOpen(pty: IPty): number | undefined {
  const path = (pty as IPty & { ptsName?: string }).ptsName;
  if (process.platform === 'win32' || !path) return undefined;
  try {
    // O_NOCTTY: this process must not adopt the command's terminal as its own.
    return openSync(path, fsConstants.O_WRONLY | fsConstants.O_NOCTTY);
  } catch {
    return undefined; // then only the kernel/libuv race above remains
  }
}

/** After the command's exit, this long without output means the kernel has handed over all of it. */
const DRAINED_AFTER_QUIET_MS = 20;

/**
 * Gives up the descriptor holdTerminalOpen keeps once the command has exited and its output has
 * been read to the end, so node-pty reports the exit then instead of 200 ms later: every command
 * paid that wait (a `true` took 207 ms through the bash tool).
 *
 * node-pty learns of the exit from its waitpid thread and then waits for its end of the pty to
 * close, which subscribes to its own 'close' event: that subscription is the only sign of the
 * exit this side can see, so the instance's `once` is wrapped to notice it. Output still on its
 * way arrives within a few milliseconds of the exit (4.3 ms at most in 500 runs of a 100 KB print
 * under load); the descriptor is released after DRAINED_AFTER_QUIET_MS without any, and only if
 * one more round of I/O polling brought nothing either (a busy event loop runs timers before it
 * reads). Then the pty hangs up with nothing left in it, and node-pty closes and reports the exit.
 * Should a node-pty release stop subscribing that way, or a background job keep the terminal,
 * the exit comes 200 ms late as before; nothing is lost either way.
 */
function releaseWhenDrained(pty: IPty, release: () => void): { dataArrived(): void; dispose(): void } {
  let exited = false;
  let released = false;
  let lastData = 0;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let check: ReturnType<typeof setImmediate> | undefined;
  const arm = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => {
      const sawBefore = lastData;
      // Through one poll phase: data the kernel already holds is read (and re-arms) before this runs.
      check = setImmediate(() => (lastData === sawBefore ? releaseOnce() : arm()));
    }, DRAINED_AFTER_QUIET_MS);
  };
  const releaseOnce = () => {
    if (released) return;
    released = true;
    release();
  };
  const emitter = pty as IPty & { once?: (event: string, listener: (...args: unknown[]) => void) => unknown };
  const once = emitter.once;
  if (typeof once === 'function') {
    emitter.once = function (this: unknown, event: string, listener: (...args: unknown[]) => void) {
      if (event === 'close' && !exited) {
        exited = true;
        arm();
      }
      return once.call(this, event, listener);
    };
  }
  return {
    dataArrived() {
      lastData++;
      if (exited && !released) arm();
    },
    dispose() {
      released = true;
      clearTimeout(quiet);
      if (check !== undefined) clearImmediate(check);
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
