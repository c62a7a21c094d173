import { joinBytes } from '../../common/joinBytes';

/** How long pty output is gathered before it goes to the window, as VS Code does. */
export const OUTPUT_BATCH_MS = 5;
/**
 * A batch at least this large (13 MB/s in 5 ms) says the program floods the pty: the next batch
 * gathers for FLOOD_BATCH_MS. The window parses a flood fastest in large pieces (xterm.js yields
 * to the page and renders between writes; fed in 256 KB pieces it parsed at half the rate it did
 * in 1 MB pieces), and nobody reads a flood's lines as they pass.
 */
export const FLOOD_BATCH_BYTES = 64 * 1024;
export const FLOOD_BATCH_MS = 20;
/** A batch this large goes out at once: waiting longer only adds latency. */
export const OUTPUT_BATCH_MAX_BYTES = 1024 * 1024;

/**
 * Coalesces the many small reads of a busy pty into one event every few milliseconds. Each
 * event crosses IPC or the WebSocket and is parsed by xterm.js; a flood read in 4 KB pieces would
 * otherwise cost thousands of messages a second, while 5 ms is below what a person can see.
 */
export class OutputBatcher {
  private pieces: Uint8Array[] = [];
  private size = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last batch was a flood's. */
  private flooding = false;

  constructor(
    private readonly deliver: (data: Uint8Array) => void,
    private readonly delayMs = OUTPUT_BATCH_MS,
    private readonly maxBytes = OUTPUT_BATCH_MAX_BYTES,
  ) {}

  push(data: Uint8Array): void {
    if (data.length === 0) return;
    this.pieces.push(data);
    this.size += data.length;
    if (this.size >= this.maxBytes) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flooding ? Math.max(this.delayMs, FLOOD_BATCH_MS) : this.delayMs);
  }

  /** Delivers what is pending now (before an exit event, so output never follows it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flooding = this.size >= FLOOD_BATCH_BYTES;
    if (this.pieces.length === 0) return;
    const data = joinBytes(this.pieces, this.size);
    this.pieces = [];
    this.size = 0;
    this.deliver(data);
  }

  /** Drops what is pending: the tab it was meant for is gone. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pieces = [];
    this.size = 0;
  }
}
