import headless from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';

// @xterm/headless is a CommonJS bundle whose named exports Node cannot see from an ES module.
const { Terminal: HeadlessTerminal } = headless;

/** Lines of scrollback main keeps per shell, as the window does. */
export const MIRROR_SCROLLBACK_LINES = 10_000;
/** Output is parsed once it pauses this long (longer than a flood's batches, 20 ms apart)… */
export const MIRROR_QUIET_MS = 50;
/** …or at the latest this long after it arrived. */
export const MIRROR_MAX_DELAY_MS = 1000;
/**
 * Output waiting to be parsed beyond which the oldest is dropped: about 10,000 lines of 100
 * characters, the scrollback kept anyway. Only a flood (over 1 MB/s without a pause) drops
 * anything, and parsing it costs main at most 1 MB a second while the window is busy.
 */
export const MIRROR_BACKLOG_BYTES = 1024 * 1024;
/**
 * The pieces handed to the headless parser. xterm.js parses each write whole before it yields,
 * so a megabyte of short lines (a `yes`: ~3 MB/s) held main's thread, and the keystrokes and
 * Ctrl-C waiting on it, for a third of a second; in these pieces it yields every ~12 ms.
 */
export const MIRROR_PARSE_PIECE_BYTES = 64 * 1024;
const LINE_FEED = 0x0a;

export interface ScreenSnapshot {
  /** The screen and scrollback as escape sequences that redraw them in a fresh xterm.js. */
  data: string;
  /** The last output batch the snapshot contains; later batches follow it. */
  seq: number;
  cols: number;
  rows: number;
}

/**
 * A shell's screen kept in main by a headless xterm.js, as VS Code does for its persistent
 * terminals: a window that reloads, or a second window, attaches to the shell and gets the screen
 * and scrollback instead of an empty tab.
 *
 * Parsing costs main as much CPU as xterm.js costs the window, and it shares main's thread with
 * the pty. So it is kept off the flood's path: output is parsed in pauses and at most every
 * MIRROR_MAX_DELAY_MS, and of a flood only the last MIRROR_BACKLOG_BYTES, which hold what the
 * scrollback can show. The price: a mode a flood switched in the middle of what was dropped
 * (rare) is not in the mirror.
 */
export class ScreenMirror {
  private readonly term: InstanceType<typeof HeadlessTerminal>;
  private readonly serializer = new SerializeAddon();
  private backlog: Array<{ data: Uint8Array; seq: number }> = [];
  private backlogBytes = 0;
  /** Written since the last parse, dropped pieces included: above the backlog's cap, a flood. */
  private unparsedBytes = 0;
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private delayTimer: ReturnType<typeof setTimeout> | undefined;
  private writtenSeq = 0;
  private parsedSeq = 0;
  /** Snapshots waiting for the parser to reach a batch. */
  private readonly waiting = new Set<{ seq: number; resolve: () => void }>();
  private disposed = false;

  /**
   * `heldBack` says whether the program's output is being held back (flow control waits for the
   * window): a pause then is not the output going quiet, and is not a moment to parse.
   */
  constructor(
    cols: number,
    rows: number,
    private readonly heldBack: () => boolean = () => false,
    private readonly maxBacklog = MIRROR_BACKLOG_BYTES,
  ) {
    this.term = new HeadlessTerminal({ cols, rows, scrollback: MIRROR_SCROLLBACK_LINES, allowProposedApi: true });
    this.term.loadAddon(this.serializer);
  }

  write(data: Uint8Array, seq: number): void {
    if (this.disposed) return;
    this.writtenSeq = seq;
    this.backlog.push({ data, seq });
    this.backlogBytes += data.length;
    this.unparsedBytes += data.length;
    while (this.backlogBytes > this.maxBacklog && this.backlog.length > 1) this.backlogBytes -= this.backlog.shift()!.data.length;
    clearTimeout(this.quietTimer);
    // In a flood the pauses are flow control waiting for the window, not the output ending: a
    // parse in each of them would read the whole flood after all (over a second of main's CPU
    // per 50 MB, taken from the window on a 2-core machine). Only the delay timer parses then.
    this.quietTimer = this.unparsedBytes > this.maxBacklog ? undefined : setTimeout(() => this.parseIfQuiet(), MIRROR_QUIET_MS);
    this.delayTimer ??= setTimeout(() => this.parse(), MIRROR_MAX_DELAY_MS);
  }

  /** Output waiting for the parser. */
  get pendingBytes(): number {
    return this.backlogBytes;
  }

  /** Output written before a resize is laid out at the old size. */
  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    this.parse();
    this.term.resize(cols, rows);
  }

  /** The screen with everything written so far (not what a flood adds meanwhile). */
  async snapshot(): Promise<ScreenSnapshot> {
    const seq = this.writtenSeq;
    this.parse();
    if (this.parsedSeq < seq && !this.disposed) await new Promise<void>((resolve) => this.waiting.add({ seq, resolve }));
    const data = this.disposed ? '' : this.serializer.serialize({ scrollback: MIRROR_SCROLLBACK_LINES });
    // Read after serializing: xterm.js calls back right after each piece, so this is what it shows.
    return { data, seq: this.parsedSeq, cols: this.term.cols, rows: this.term.rows };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearTimers();
    this.backlog = [];
    this.term.dispose();
    for (const waiter of this.waiting) waiter.resolve();
    this.waiting.clear();
  }

  private parseIfQuiet(): void {
    this.quietTimer = undefined;
    // Held back, the program is blocked on the pty: the rest comes when the window catches up,
    // and its own quiet timer (or the delay timer) parses it.
    if (!this.heldBack()) this.parse();
  }

  private parse(): void {
    this.clearTimers();
    if (this.disposed || this.backlog.length === 0) return;
    const pieces = this.unparsedBytes > this.maxBacklog ? keepLastLines(this.backlog, MIRROR_SCROLLBACK_LINES + this.term.rows) : this.backlog;
    this.backlog = [];
    this.backlogBytes = 0;
    this.unparsedBytes = 0;
    for (const { data, seq } of pieces) {
      for (let at = 0; at < data.length; at += MIRROR_PARSE_PIECE_BYTES) {
        const end = Math.min(data.length, at + MIRROR_PARSE_PIECE_BYTES);
        this.term.write(data.subarray(at, end), end < data.length ? undefined : () => this.parsed(seq));
      }
    }
  }

  private parsed(seq: number): void {
    this.parsedSeq = seq;
    for (const waiter of this.waiting) {
      if (waiter.seq > seq) continue;
      this.waiting.delete(waiter);
      waiter.resolve();
    }
  }

  private clearTimers(): void {
    clearTimeout(this.quietTimer);
    clearTimeout(this.delayTimer);
    this.quietTimer = undefined;
    this.delayTimer = undefined;
  }
}

/**
 * What a flood's backlog needs for the screen and scrollback: the bytes after the line feed that
 * begins the last `lines` lines (fewer bytes than the cap when lines are short: a `yes` keeps 30 KB,
 * not a megabyte). The cut follows a line feed, so no character is split.
 */
export function keepLastLines(pieces: Array<{ data: Uint8Array; seq: number }>, lines: number): Array<{ data: Uint8Array; seq: number }> {
  let feeds = 0;
  for (let index = pieces.length - 1; index >= 0; index--) {
    const { data, seq } = pieces[index]!;
    for (let at = data.length - 1; at >= 0; at--) {
      at = data.lastIndexOf(LINE_FEED, at);
      if (at < 0) break;
      if (++feeds <= lines) continue;
      const rest = pieces.slice(index + 1);
      return at + 1 < data.length ? [{ data: data.subarray(at + 1), seq }, ...rest] : rest;
    }
  }
  return pieces;
}
