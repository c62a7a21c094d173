import type { IPty } from 'node-pty';
import { spawnPty } from '../platform/pty';
import { endPtyProcesses } from '../platform/ptyKill';
import { destroyQuietly } from '../platform/ptyQuietly';
import type { TerminalInfo } from '../../common/contract';
import { DEFAULT_KILL_GRACE_MS, killProcessTree } from '../platform/killTree';
import { FlowControl } from './flowControl';
import { OutputBatcher } from './outputBatcher';
import { ScreenMirror, type ScreenSnapshot } from './screenMirror';
import type { ShellLaunch } from './shellLaunch';
import { TERMINAL_MARKER_VARIABLE } from './terminalEnv';

/** After its tree was killed, how long the shell's exit is awaited before its pty is freed regardless. */
const EXIT_WAIT_AFTER_KILL_MS = 2000;

export interface TerminalExit {
  /** Null when the shell died of a signal. */
  exitCode: number | null;
  signal: number | null;
}

export interface TerminalStart {
  id: string;
  launch: ShellLaunch;
  cwd: string;
  cols: number;
  rows: number;
  env: Record<string, string>;
  /** The value of TERMINAL_MARKER_VARIABLE in `env`. */
  marker: string;
  /** One batch of raw output for the window (UTF-8; a character may be split between batches), numbered from 1. */
  onOutput: (data: Uint8Array, seq: number) => void;
  /** The shell ended on its own (not called for a tab that was closed). */
  onExit: (exit: TerminalExit) => void;
}

/**
 * One tab: the person's shell in a pseudo-terminal, its raw output batched, mirrored into a
 * headless screen (for windows that attach later) and held back when the window falls behind, and
 * its whole process tree killed when the tab closes. Output stays bytes: xterm.js decodes it.
 */
export class Terminal {
  readonly info: TerminalInfo;
  private readonly encoder = new TextEncoder();
  private readonly batcher: OutputBatcher;
  private readonly flow: FlowControl;
  private readonly mirror: ScreenMirror;
  private seq = 0;
  private state: 'running' | 'exited' | 'closing' = 'running';
  private exit: TerminalExit | undefined;
  private closing: Promise<void> | undefined;
  private markExitSeen: () => void = () => undefined;
  private readonly exitSeen = new Promise<void>((resolve) => (this.markExitSeen = resolve));

  /** Throws when the shell cannot be started. */
  static start(options: TerminalStart): Terminal {
    const pty = spawnPty(options.launch.file, options.launch.args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      // Raw bytes (POSIX; ConPTY gives strings whatever this says), passed on undecoded: xterm.js
      // decodes UTF-8 itself and keeps a character split across two reads for the next one.
      encoding: null,
    });
    return new Terminal(pty, options);
  }

  private constructor(
    private readonly pty: IPty,
    private readonly options: TerminalStart,
  ) {
    this.info = { id: options.id, title: options.launch.title, cwd: options.cwd, pid: pty.pid };
    this.flow = new FlowControl(pty);
    this.mirror = new ScreenMirror(options.cols, options.rows, () => this.flow.isPaused);
    this.batcher = new OutputBatcher((data) => this.deliver(data));
    pty.onData((data: string | Uint8Array) => this.received(typeof data === 'string' ? this.encoder.encode(data) : data));
    pty.onExit(({ exitCode, signal }) => this.exited(signal ? { exitCode: null, signal } : { exitCode, signal: null }));
  }

  /** Keystrokes and pastes. Written even while output is paused, so Ctrl-C is never held back. */
  write(data: string): void {
    if (this.state === 'running') this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.state !== 'running') return;
    // Output batched before the resize was laid out at the old size: the mirror gets it first.
    this.batcher.flush();
    this.mirror.resize(cols, rows);
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The pty closed and its exit is on the way: the size of a finished tab does not matter.
    }
  }

  acknowledge(bytes: number, parseRate?: number, viewer?: string): void {
    this.flow.acknowledged(bytes, parseRate, viewer);
  }

  /** `viewer` (a page of `keel web`) is gone: it no longer holds the shell back. */
  leave(viewer: string): void {
    this.flow.leave(viewer);
  }

  /**
   * The screen and scrollback for a window attaching to this shell. What that viewer was sent
   * before (a reload) it will acknowledge no more, so its flow control starts over.
   */
  async snapshot(viewer?: string): Promise<ScreenSnapshot> {
    this.batcher.flush();
    this.flow.reset(viewer);
    return this.mirror.snapshot();
  }

  /**
   * Closes the tab: no more events, and every process the shell started, in the background, in a
   * new session (`setsid`) or immune to hang-ups (`nohup`), is killed. SIGHUP first, as a terminal
   * emulator sends when its window closes (an interactive shell ignores SIGTERM, and on SIGHUP it
   * saves its history and hangs up its jobs); SIGKILL after the grace period. Resolves once they
   * are gone. Also reaps what a shell that ended on its own left behind.
   */
  close(graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
    if (this.state === 'running') this.state = 'closing';
    this.batcher.discard();
    this.mirror.dispose();
    // Read on, into nothing: a program that handles the hang-up and prints on its way out must
    // not block on a full pty until SIGKILL.
    this.flow.release();
    this.closing ??= this.killTree(graceMs);
    return this.closing;
  }

  private async killTree(graceMs: number): Promise<void> {
    const exitSeen = () => this.exit !== undefined;
    const ended = await endPtyProcesses(this.pty, {
      exitSeen,
      killTree: (pid) =>
        killProcessTree(pid, { marker: `${TERMINAL_MARKER_VARIABLE}=${this.options.marker}`, signal: 'SIGHUP', graceMs, rootExited: exitSeen }),
    });
    if (ended === 'pty closed') return;
    await waitUpTo(this.exitSeen, EXIT_WAIT_AFTER_KILL_MS);
    // A shell not even SIGKILL ended (uninterruptible sleep): free its pty rather than leak the
    // descriptor. Not earlier: node-pty signals the pid when it destroys, and once the shell
    // is reaped that pid may be another process's.
    if (this.exit === undefined) destroyQuietly(this.pty);
  }

  private received(data: Uint8Array): void {
    if (this.state !== 'running' || data.length === 0) return;
    this.flow.sent(data.length);
    this.batcher.push(data);
  }

  private deliver(data: Uint8Array): void {
    const seq = ++this.seq;
    this.mirror.write(data, seq);
    this.options.onOutput(data, seq);
  }

  private exited(exit: TerminalExit): void {
    this.exit = exit;
    this.markExitSeen();
    if (this.state !== 'running') return;
    // node-pty reports the exit once the pty is drained and closed: nothing follows it, so the
    // last batch goes out first.
    this.state = 'exited';
    this.batcher.flush();
    this.options.onExit(exit);
  }
}

/** Settles when `promise` does or after `ms`, without a timer left to hold the process open. */
function waitUpTo(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
