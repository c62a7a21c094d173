/** How often a running command's output goes to the windows (the Agent tab, the chat's card). */
export const LIVE_OUTPUT_INTERVAL_MS = 50;
/** At most this many characters of it per interval: the newest, the rest only counted. */
export const LIVE_OUTPUT_MAX_CHARS = 64 * 1024;

/**
 * Bounds what the agent's command output costs the windows. Each pty read used to be one event
 * for every window, JSON and all, with no flow control: a 100 MB flood was ~75,000 events a
 * second that the windows could not keep up with, queued in main's sockets. The tool's own result
 * is cut to head and tail anyway; the live view gets at most LIVE_OUTPUT_MAX_CHARS every
 * LIVE_OUTPUT_INTERVAL_MS (about 1.3 MB/s), the newest, and how much it skipped.
 */
export class LiveOutput {
  private pieces: string[] = [];
  private chars = 0;
  private skipped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (chunk: string, skipped: number) => void,
    private readonly intervalMs = LIVE_OUTPUT_INTERVAL_MS,
    private readonly maxChars = LIVE_OUTPUT_MAX_CHARS,
  ) {}

  push(chunk: string): void {
    if (chunk === '') return;
    this.pieces.push(chunk);
    this.chars += chunk.length;
    while (this.chars > this.maxChars && this.pieces.length > 1) {
      const dropped = this.pieces.shift()!;
      this.chars -= dropped.length;
      this.skipped += dropped.length;
    }
    if (this.chars > this.maxChars) {
      // One piece larger than the bound: its newest part.
      const only = this.pieces[0]!;
      this.skipped += only.length - this.maxChars;
      this.pieces[0] = only.slice(-this.maxChars);
      this.chars = this.maxChars;
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Delivers what is pending (before the command's result, so no output follows it). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pieces.length === 0 && this.skipped === 0) return;
    let chunk = this.pieces.join('');
    let skipped = this.skipped;
    if (skipped > 0) {
      // The kept part starts on a line of its own, not inside a line or an escape sequence.
      const newline = chunk.indexOf('\n');
      if (newline !== -1 && newline < chunk.length - 1) {
        skipped += newline + 1;
        chunk = chunk.slice(newline + 1);
      }
    }
    this.pieces = [];
    this.chars = 0;
    this.skipped = 0;
    this.deliver(chunk, skipped);
  }
}
