/** What ending a pty's processes needs of the pty: node-pty's IPty has it, and so does a test's fake. */
export interface KillablePty {
  readonly pid: number;
  kill(signal?: string): void;
}

export interface EndPtyOptions {
  platform?: NodeJS.Platform;
  /** Whether the pty's own process (the shell) has been seen to exit. */
  exitSeen: () => boolean;
  /**
   * Kills the process tree rooted at the pid: on POSIX by signals (see killProcessTree, which
   * stops following a reaped root by pid), on Windows `taskkill /PID pid /T /F`.
   */
  killTree: (pid: number) => Promise<void>;
}

/**
 * Ends what runs in a pty. POSIX: the tree, by signals. Windows: `taskkill /T` first while the
 * shell is alive (it finds children through the shell), then closing the pseudo-console, which
 * ends what is still attached to it. Once the shell's exit has been seen, taskkill is skipped:
 * Windows reuses pids at once, and `/T` would kill whichever program now has that pid and its
 * whole tree. Returns whether the pty was closed (Windows), after which nothing more is awaited.
 */
export async function endPtyProcesses(pty: KillablePty, options: EndPtyOptions): Promise<'pty closed' | 'tree signalled'> {
  const windows = (options.platform ?? process.platform) === 'win32';
  if (!(windows && options.exitSeen())) await options.killTree(pty.pid).catch(() => undefined);
  if (!windows) return 'tree signalled';
  try {
    pty.kill();
  } catch {
    // already closed
  }
  return 'pty closed';
}
