/**
 * Above this many bytes sent to the window but not yet acknowledged the pty is paused, and it
 * resumes once the window has caught up to below half of it; the gap keeps the pty from flapping
 * between paused and running on every acknowledgement.
 *
 * Until the window says how fast it parses, the window is 3 MB: sized by `npm run bench --
 * terminal` for lines of 100 characters (VS Code's 100,000 / 5,000 gave 4.8 MB/s to the window:
 * it idles while each ack travels). But bytes are the wrong unit for the answer to a Ctrl-C, which
 * waits behind everything in flight: xterm.js parses a `yes` (3 bytes a line) at about 3 MB/s
 * against 25 MB/s for long lines, so 3 MB of `yes` held the prompt for a second.
 */
export const FLOW_HIGH_WATERMARK_BYTES = 3_000_000;
export const FLOW_LOW_WATERMARK_BYTES = FLOW_HIGH_WATERMARK_BYTES / 2;
/**
 * So the window is sized in time once the window reports its parse rate: this much of its
 * parsing in flight. Enough for the pty to refill it while the window parses the lower half
 * (an ack's round trip and a flood's 20 ms batch), little enough for a Ctrl-C's prompt.
 */
export const FLOW_WINDOW_MS = 150;
/** Bounds of the window sized by a reported rate (a rate is the window's word, not trusted beyond these). */
export const FLOW_MIN_WINDOW_BYTES = 128 * 1024;
export const FLOW_MAX_WINDOW_BYTES = 4_000_000;

/** The high watermark for a window that parses `parseRate` bytes a second. */
export function flowWindowFor(parseRate: number): number {
  return Math.round(Math.min(FLOW_MAX_WINDOW_BYTES, Math.max(FLOW_MIN_WINDOW_BYTES, (parseRate * FLOW_WINDOW_MS) / 1000)));
}

/** What flow control needs of a pty: node-pty's pause and resume of its reading side. */
export interface Pausable {
  pause(): void;
  resume(): void;
}

/** Who acknowledges output: the desktop window, or one page of `keel web`. */
export const DEFAULT_VIEWER = 'window';

interface ViewerWindow {
  unacknowledged: number;
  high: number;
}

const freshWindow = (): ViewerWindow => ({ unacknowledged: 0, high: FLOW_HIGH_WATERMARK_BYTES });

/**
 * Back-pressure from the windows to the program. A paused pty is no longer read, so the kernel's
 * small pty buffer fills and the program blocks on its next write: a `yes` or a 100 MB `cat`
 * waits for the window instead of piling up in main's memory. Only reading is paused; input
 * (Ctrl-C above all) is still written at once.
 *
 * Every viewer (the desktop window, each page of `keel web`) counts what it has not acknowledged
 * against its own window: the pty runs only while every viewer is within its own, so the slowest
 * page holds the shell and none is flooded. A viewer counts from its first acknowledgement or
 * snapshot; until there is one, output counts for whoever claims it first (the window that opened
 * the tab). One that leaves stops counting.
 *
 * Bytes of raw pty output, the unit the window counts when it acknowledges what xterm.js parsed.
 */
export class FlowControl {
  private readonly viewers = new Map<string, ViewerWindow>();
  /** What was sent while no viewer counted: the first to claim this terminal inherits it. */
  private unclaimed = freshWindow();
  private paused = false;

  constructor(private readonly pty: Pausable) {}

  /** Output is on its way to every viewer. */
  sent(bytes: number): void {
    if (this.viewers.size === 0) this.unclaimed.unacknowledged += bytes;
    for (const window of this.viewers.values()) window.unacknowledged += bytes;
    if (!this.paused && this.windows().some((window) => window.unacknowledged > window.high)) {
      this.paused = true;
      this.pty.pause();
    }
  }

  /** `viewer` has parsed this many bytes; `parseRate`, when it measured it, is how many it parses a second. */
  acknowledged(bytes: number, parseRate?: number, viewer: string = DEFAULT_VIEWER): void {
    const window = this.claim(viewer);
    if (parseRate !== undefined && Number.isFinite(parseRate) && parseRate > 0) {
      window.high = flowWindowFor(parseRate);
    }
    // Never below zero: an over-acknowledgement (a window that reloaded, a bug) must not buy
    // credit that lets the next flood through unchecked.
    window.unacknowledged = Math.max(0, window.unacknowledged - bytes);
    this.resumeIfCaughtUp();
  }

  /** Lets the pty be read again whatever is pending, e.g. so that a closing tab drains. */
  release(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pty.resume();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** `viewer` attached afresh (a reload): what it never acknowledged before is not waited for. */
  reset(viewer: string = DEFAULT_VIEWER): void {
    this.claim(viewer).unacknowledged = 0;
    this.resumeIfCaughtUp();
  }

  /** `viewer` is gone (its page closed): the others alone hold the shell now. */
  leave(viewer: string): void {
    const window = this.viewers.get(viewer);
    if (!window) return;
    this.viewers.delete(viewer);
    // With nobody left, what it had in flight waits for the next viewer's snapshot, as before.
    if (this.viewers.size === 0) this.unclaimed = window;
    this.resumeIfCaughtUp();
  }

  /** The most any viewer has not acknowledged. */
  get unacknowledgedBytes(): number {
    return Math.max(...this.windows().map((window) => window.unacknowledged));
  }

  /** The smallest of the viewers' windows: unacknowledged bytes above which one of them pauses the pty. */
  get highWatermark(): number {
    return Math.min(...this.windows().map((window) => window.high));
  }

  private claim(viewer: string): ViewerWindow {
    let window = this.viewers.get(viewer);
    if (!window) {
      window = this.viewers.size === 0 ? this.unclaimed : freshWindow();
      this.unclaimed = freshWindow();
      this.viewers.set(viewer, window);
    }
    return window;
  }

  private windows(): ViewerWindow[] {
    return this.viewers.size === 0 ? [this.unclaimed] : [...this.viewers.values()];
  }

  /** Half of each window: the gap keeps the pty from flapping on every acknowledgement. */
  private resumeIfCaughtUp(): void {
    if (this.paused && this.windows().every((window) => window.unacknowledged < window.high / 2)) this.release();
  }
}
