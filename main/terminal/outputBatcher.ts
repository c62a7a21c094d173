/** How long pty output is gathered before it goes to the window, as VS Code does. */
export const OUTPUT_BATCH_MS = 5;
/** A batch this large goes out at once: during a flood, waiting only adds latency. */
export const OUTPUT_BATCH_MAX_BYTES = 256 * 1024;

/**
 * Coalesces the many small reads of a busy pty into one event every few milliseconds. Each
 * event crosses IPC or the WebSocket and is parsed by xterm.js; a flood read in 4 KB pieces would
 * otherwise cost thousands of messages a second, while 5 ms is below what a person can see.
 */
export class OutputBatcher {
  private pieces: Uint8Array[] = [];
  private size = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

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
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Delivers what is pending now (before an exit event, so output never follows it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pieces.length === 0) return;
    const data = this.pieces.length === 1 ? this.pieces[0]! : concat(this.pieces, this.size);
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

function concat(pieces: Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}
