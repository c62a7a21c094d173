import { resolve } from 'node:path';

/**
 * The Electron host's lifecycle decisions as plain functions over the few pieces of `app` and the
 * window they use, so they run in Node tests. No electron import here: main/index.ts wires them.
 */

/** The part of a BrowserWindow that bringing it forward needs. */
export interface FocusableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** Brings the window to the front: restored if minimised, shown if hidden. */
export function bringToFront(window: FocusableWindow | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** The part of `app` single-instance needs. */
export interface InstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
}

/**
 * One Keel at a time (two would write the same sessions and settings). Returns false when another
 * instance holds the lock: this one quits. When a second one is started, the first comes to the
 * front, and opens the folder the second was given, if any.
 */
export function claimSingleInstance(
  app: InstanceApp,
  window: () => FocusableWindow | null,
  openFolder: (folder: string) => void,
  isPackaged: boolean,
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => {
    bringToFront(window());
    const folder = folderArgument(argv, isPackaged);
    // A relative folder is relative to where the second instance was started.
    if (folder) openFolder(resolve(workingDirectory || '.', folder));
  });
  return true;
}

/**
 * The folder named on the command line (`keel-app <folder>`), or null. Switches are skipped, and
 * so is the executable and, in an unpackaged run (`electron <app> <folder>`), the app's entry.
 */
export function folderArgument(argv: readonly string[], isPackaged: boolean): string | null {
  const positional = argv.slice(1).filter((arg) => !arg.startsWith('-'));
  return positional[isPackaged ? 0 : 1] ?? null;
}

/** What quitting needs: the core's shutdown, the real quit, and somewhere to say what went wrong. */
export interface QuitPieces {
  /** Stops the agent and kills every terminal's process tree. */
  dispose(): Promise<void>;
  quit(): void;
  log(message: string): void;
  /** How long the shutdown may take before Keel quits anyway (a stuck process must not keep it open). */
  deadlineMs?: number;
}

/**
 * The `before-quit` listener: the first quit is held until the shells and their processes are
 * gone, then quits for real; the quit that follows passes. Runs the shutdown once, however many
 * times quit is asked for meanwhile.
 */
export function createQuitSequence(pieces: QuitPieces): (event: { preventDefault(): void }) => void {
  let state: 'running' | 'disposing' | 'done' = 'running';
  return (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'disposing') return;
    state = 'disposing';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), pieces.deadlineMs ?? 10_000);
    });
    void Promise.race([pieces.dispose().then(() => 'done' as const), deadline])
      .then((outcome) => {
        if (outcome === 'late') pieces.log('Keel is quitting although some terminal processes had not ended yet.');
      })
      .catch((error: unknown) =>
        pieces.log(`Keel could not stop every terminal process while quitting: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        clearTimeout(timer);
        state = 'done';
        pieces.quit();
      });
  };
}
