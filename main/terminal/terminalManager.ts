import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { ErrorCodes, LIMITS, type EventPayload, type TerminalInfo } from '../../common/contract';
import { fail, ok, type Result } from '../../common/result';
import { loginShellPath } from '../platform/loginEnvironment';
import { shellLaunch, type ShellLaunch } from '../platform/shellLaunch';
import type { ScreenSnapshot } from './screenMirror';
import type { Terminal, TerminalExit } from './terminal';
import { terminalEnvironment } from './terminalEnv';

type TerminalEvent = 'terminal.exit';

/** A batch of a tab's raw output; it travels as bytes (binary frames, IPC Uint8Arrays), not JSON. */
export type TerminalOutputListener = (id: string, seq: number, data: Uint8Array) => void;

export interface TerminalManagerOptions {
  emit: <E extends TerminalEvent>(event: E, payload: EventPayload<E>) => void;
  output: TerminalOutputListener;
  /** The open session's workspace folder, where new shells start; null starts them at home. */
  workspace: () => string | null;
  /**
   * When new shells get the login shell's PATH instead of Keel's: 'auto' when Keel looks started
   * from the desktop (see launchedFromDesktop), or always, or never.
   */
  loginPath?: 'auto' | 'always' | 'never';
  log?: (message: string) => void;
}

type Size = { cols: number; rows: number };

/**
 * The person's shells, one per tab, for whichever window is attached. Every answer is a Result:
 * an unknown id or a shell that cannot start is an error a person can act on, never a throw.
 *
 * A tab owns every process started from it: closing the tab, or dispose() when the host quits,
 * kills the whole tree. When the shell ends on its own, `terminal.exit` goes out and what it
 * left running in the background is killed too, as it could no longer be reached from any tab.
 */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();
  /** Ids that existed, and why they are gone: late acks and resizes for them are expected. */
  private readonly gone = new Map<string, 'closed' | TerminalExit>();
  /** Kills of what ended shells left behind, awaited by dispose(). */
  private readonly reaping = new Set<Promise<void>>();
  private count = 0;
  /** Shells being started (create awaits the login PATH): they count against the cap too. */
  private starting = 0;
  private disposed = false;

  constructor(private readonly options: TerminalManagerOptions) {}

  async create(size: Size): Promise<Result<TerminalInfo>> {
    if (this.disposed) return shuttingDown();
    if (this.terminals.size + this.starting >= LIMITS.terminals) {
      return fail(
        ErrorCodes.limitReached,
        `There are already ${LIMITS.terminals} terminals open, the most Keel keeps at once. Close one you no longer need, then open a new one.`,
      );
    }
    this.starting++;
    try {
      return await this.start(size);
    } finally {
      this.starting--;
    }
  }

  private async start({ cols, rows }: Size): Promise<Result<TerminalInfo>> {
    const cwd = this.options.workspace() ?? homedir();
    if (!isDirectory(cwd)) {
      return fail(ErrorCodes.workspaceNotFound, `The folder ${cwd} no longer exists, so no shell can start in it. Open an existing folder and try again.`);
    }
    const launch = shellLaunch();
    // The terminal's code (its headless xterm.js above all, ~80 ms to load) comes with the first tab.
    const [path, { Terminal }] = await Promise.all([this.resolveLoginPath(launch), import('./terminal')]);
    if (this.disposed) return shuttingDown();
    const id = `t${++this.count}`;
    const marker = randomUUID();
    let terminal: Terminal;
    try {
      terminal = Terminal.start({
        id,
        launch,
        cwd,
        cols,
        rows,
        marker,
        env: terminalEnvironment(process.env, { marker, path }),
        onOutput: (data, seq) => this.output(id, seq, data),
        onExit: (exit) => this.shellEnded(id, exit),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return fail(
        ErrorCodes.internal,
        `Could not start the shell ${launch.file}: ${reason}. Set SHELL to a shell that exists on this machine, then open a new terminal.`,
      );
    }
    this.terminals.set(id, terminal);
    return ok(terminal.info);
  }

  /** The tabs whose shells are running, oldest first: what a reloaded window re-attaches to. */
  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((terminal) => terminal.info);
  }

  input(id: string, data: string): Result<Record<string, never>> {
    const terminal = this.terminals.get(id);
    // Keystrokes for a shell that is gone are an error: losing what the person typed silently is not.
    if (!terminal) return this.missing(id);
    terminal.write(data);
    return ok({});
  }

  resize(id: string, { cols, rows }: Size): Result<Record<string, never>> {
    const terminal = this.terminals.get(id);
    if (terminal) terminal.resize(cols, rows);
    // A resize, like an ack, races with the shell's exit by nature: one for a tab that just
    // ended is no mistake of the window's.
    else if (!this.gone.has(id)) return this.missing(id);
    return ok({});
  }

  /**
   * Flow control: `viewer` (the window, or one page of `keel web`) has parsed `bytes` more bytes of
   * this tab's output (at `parseRate` bytes a second, when measured).
   */
  ack(id: string, bytes: number, parseRate?: number, viewer?: string): Result<Record<string, never>> {
    const terminal = this.terminals.get(id);
    if (terminal) terminal.acknowledge(bytes, parseRate, viewer);
    else if (!this.gone.has(id)) return this.missing(id);
    return ok({});
  }

  /** The tab's screen and scrollback, for a window (`viewer`) that attaches to a running shell. */
  async snapshot(id: string, viewer?: string): Promise<Result<ScreenSnapshot>> {
    const terminal = this.terminals.get(id);
    if (!terminal) return this.missing(id);
    return ok(await terminal.snapshot(viewer));
  }

  /** `viewer` (a page of `keel web`) is gone: no tab waits for its acknowledgements any more. */
  leave(viewer: string): void {
    for (const terminal of this.terminals.values()) terminal.leave(viewer);
  }

  /** `closed` is false when the tab had already ended (its shell exited, or it was closed before). */
  async close(id: string): Promise<Result<{ closed: boolean }>> {
    const terminal = this.terminals.get(id);
    if (!terminal) return this.gone.has(id) ? ok({ closed: false }) : this.missing(id);
    this.terminals.delete(id);
    this.gone.set(id, 'closed');
    await terminal.close();
    return ok({ closed: true });
  }

  /** Kills every tab's process tree; for the host's quit. No terminal can be opened after. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const closing = [...this.terminals].map(([id, terminal]) => {
      this.gone.set(id, 'closed');
      return terminal.close();
    });
    this.terminals.clear();
    await Promise.all([...closing, ...this.reaping]);
  }

  private shellEnded(id: string, exit: TerminalExit): void {
    const terminal = this.terminals.get(id);
    if (!terminal) return;
    this.terminals.delete(id);
    this.gone.set(id, exit);
    this.emit('terminal.exit', { id, exitCode: exit.exitCode, signal: exit.signal });
    const reaped: Promise<void> = terminal.close().finally(() => this.reaping.delete(reaped));
    this.reaping.add(reaped);
  }

  private missing(id: string): Result<never> {
    const why = this.gone.get(id);
    if (why === undefined) {
      return fail(ErrorCodes.badRequest, `There is no terminal "${id}". Open one with terminal.create, or use an id from terminal.list.`);
    }
    const ended = why === 'closed' ? 'was closed' : `has ended (${why.signal !== null ? `signal ${why.signal}` : `exit code ${why.exitCode}`})`;
    return fail(ErrorCodes.badRequest, `Terminal "${id}" ${ended}, so it takes no more input. Open a new terminal.`);
  }

  private output(id: string, seq: number, data: Uint8Array): void {
    try {
      this.options.output(id, seq, data);
    } catch (error) {
      this.options.log?.(`warning: a terminal output listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private emit<E extends TerminalEvent>(event: E, payload: EventPayload<E>): void {
    try {
      this.options.emit(event, payload);
    } catch (error) {
      // Called from the pty's timers: a failing listener must not take the host down.
      this.options.log?.(`warning: a terminal event listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Once per process, shared with the agent's commands (see loginShellPath). */
  private resolveLoginPath(launch: ShellLaunch): Promise<string | undefined> {
    return loginShellPath({ mode: this.options.loginPath, shell: launch.file, log: this.options.log });
  }
}

function shuttingDown(): Result<never> {
  return fail(ErrorCodes.unsupported, 'Keel is shutting down, so no new terminal can be opened.');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
