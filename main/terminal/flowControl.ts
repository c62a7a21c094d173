/**
 * Above this many bytes sent to the window but not yet acknowledged the pty is paused, and it
 * resumes once the window has caught up to below the low mark; the gap keeps the pty from
 * flapping between paused and running on every acknowledgement.
 *
 * Sized by `npm run bench -- terminal` on a 2-core machine: VS Code's 100,000 / 5,000 gave 4.8
 * MB/s to the window (it idles while each ack travels, and node-pty pauses and resumes all the
 * time); 1 MB gave 25 MB/s with 256 KB batches. With a flood's 1 MB batches (outputBatcher) the
 * window needs room for a batch in flight beside the one it parses: 3 MB, which xterm.js parses
 * in about 60 ms, so a Ctrl-C's answer waits behind no more than that (p95 120–170 ms measured,
 * as before).
 */
export const FLOW_HIGH_WATERMARK_BYTES = 3_000_000;
export const FLOW_LOW_WATERMARK_BYTES = 1_500_000;

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

  constructor(
    private readonly pty: Pausable,
    private readonly high = FLOW_HIGH_WATERMARK_BYTES,
    private readonly low = FLOW_LOW_WATERMARK_BYTES,
  ) {}

  /** Output is on its way to the window. */
  sent(bytes: number): void {
    this.unacknowledged += bytes;
    if (!this.paused && this.unacknowledged > this.high) {
      this.paused = true;
      this.pty.pause();
    }
  }

  /** The window has parsed this many bytes. */
  acknowledged(bytes: number): void {
    // Never below zero: an over-acknowledgement (a window that reloaded, a bug) must not buy
    // credit that lets the next flood through unchecked.
    this.unacknowledged = Math.max(0, this.unacknowledged - bytes);
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

  /** A window attached afresh (a reload): what the old one never acknowledged is not waited for. */
  reset(): void {
    this.unacknowledged = 0;
    this.release();
  }

  get unacknowledgedBytes(): number {
    return this.unacknowledged;
  }
}
