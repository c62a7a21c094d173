/**
 * VS Code's thresholds: above this many characters sent to the window but not yet acknowledged
 * the pty is paused, and it resumes once the window has caught up to below the low mark. The gap
 * keeps the pty from flapping between paused and running on every acknowledgement.
 */
export const FLOW_HIGH_WATERMARK_CHARS = 100_000;
export const FLOW_LOW_WATERMARK_CHARS = 5_000;

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
 * Characters are JavaScript string lengths (UTF-16 code units) of the decoded output, the same
 * unit the window counts when it acknowledges what it has rendered.
 */
export class FlowControl {
  private unacknowledged = 0;
  private paused = false;

  constructor(
    private readonly pty: Pausable,
    private readonly high = FLOW_HIGH_WATERMARK_CHARS,
    private readonly low = FLOW_LOW_WATERMARK_CHARS,
  ) {}

  /** Output is on its way to the window. */
  sent(chars: number): void {
    this.unacknowledged += chars;
    if (!this.paused && this.unacknowledged > this.high) {
      this.paused = true;
      this.pty.pause();
    }
  }

  /** The window has rendered this many characters. */
  acknowledged(chars: number): void {
    // Never below zero: an over-acknowledgement (a window that reloaded, a bug) must not buy
    // credit that lets the next flood through unchecked.
    this.unacknowledged = Math.max(0, this.unacknowledged - chars);
    if (this.paused && this.unacknowledged < this.low) this.release();
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

  get unacknowledgedChars(): number {
    return this.unacknowledged;
  }
}
