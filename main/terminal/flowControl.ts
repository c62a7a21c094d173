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

/**
 * Back-pressure from the window to the program. A paused pty is no longer read, so the kernel's
 * small pty buffer fills and the program blocks on its next write: a `yes` or a 100 MB `cat`
 * waits for the window instead of piling up in main's memory. Only reading is paused; input
 * (Ctrl-C above all) is still written at once.
 *
 * Bytes of raw pty output, the unit the window counts when it acknowledges what xterm.js parsed.
 */
export class FlowControl {
  private unacknowledged = 0;
  private paused = false;

  private high = FLOW_HIGH_WATERMARK_BYTES;

  constructor(private readonly pty: Pausable) {}

  /** Output is on its way to the window. */
  sent(bytes: number): void {
    this.unacknowledged += bytes;
    if (!this.paused && this.unacknowledged > this.high) {
      this.paused = true;
      this.pty.pause();
    }
  }

  /** The window has parsed this many bytes; `parseRate`, when it measured it, is how many it parses a second. */
  acknowledged(bytes: number, parseRate?: number): void {
    if (parseRate !== undefined && Number.isFinite(parseRate) && parseRate > 0) {
      this.high = flowWindowFor(parseRate);
    }
    // Never below zero: an over-acknowledgement (a window that reloaded, a bug) must not buy
    // credit that lets the next flood through unchecked.
    this.unacknowledged = Math.max(0, this.unacknowledged - bytes);
    // Half the window: the gap keeps the pty from flapping on every acknowledgement.
    if (this.paused && this.unacknowledged < this.high / 2) this.release();
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

  /** A window attached afresh (a reload): what the old one never acknowledged is not waited for. */
  reset(): void {
    this.unacknowledged = 0;
    this.release();
  }

  get unacknowledgedBytes(): number {
    return this.unacknowledged;
  }

  /** Unacknowledged bytes above which the pty is paused. */
  get highWatermark(): number {
    return this.high;
  }
}
