/** How long pty output is gathered before it goes to the window, as VS Code does. */
export const OUTPUT_BATCH_MS = 5;

/**
 * Coalesces the many small reads of a busy pty into one event every few milliseconds. Each
 * event crosses IPC or the WebSocket and is parsed by xterm.js; a flood read in 4 KB pieces would
 * otherwise cost thousands of messages a second, while 5 ms is below what a person can see.
 */
export class OutputBatcher {
  private pieces: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (data: string) => void,
    private readonly delayMs = OUTPUT_BATCH_MS,
  ) {}

  push(text: string): void {
    if (text === '') return;
    this.pieces.push(text);
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  /** Delivers what is pending now (before an exit event, so output never follows it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pieces.length === 0) return;
    const data = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join('');
    this.pieces = [];
    this.deliver(data);
  }

  /** Drops what is pending: the tab it was meant for is gone. */
  discard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pieces = [];
  }
}
