import headless from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';

// @xterm/headless is a CommonJS bundle whose named exports Node cannot see from an ES module.
const { Terminal: HeadlessTerminal } = headless;

/** Lines of scrollback main keeps per shell, as the window does. */
export const MIRROR_SCROLLBACK_LINES = 10_000;
/**
 * Output waiting for the mirror's parser beyond which the oldest waiting batches are dropped.
 * The mirror is kept off the flood's critical path: it must not slow the shell down to its own
 * parse rate, nor hold a flood in memory. What a flood drops is scrolled away anyway, since
 * 10,000 lines of scrollback are about 1 MB.
 */
export const MIRROR_BACKLOG_BYTES = 4 * 1024 * 1024;

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
 * and scrollback instead of an empty tab. It parses the same bytes the window gets, one batch at a
 * time, in the background.
 */
export class ScreenMirror {
  private readonly term: InstanceType<typeof HeadlessTerminal>;
  private readonly serializer = new SerializeAddon();
  private readonly backlog: Array<{ data: Uint8Array; seq: number }> = [];
  private backlogBytes = 0;
  private parsing = false;
  private parsedSeq = 0;
  private writtenSeq = 0;
  /** Snapshots waiting for the parser to reach a batch. */
  private readonly waiting = new Set<{ seq: number; resolve: () => void }>();
  private disposed = false;

  constructor(cols: number, rows: number, private readonly maxBacklog = MIRROR_BACKLOG_BYTES) {
    this.term = new HeadlessTerminal({ cols, rows, scrollback: MIRROR_SCROLLBACK_LINES, allowProposedApi: true });
    this.term.loadAddon(this.serializer);
  }

  write(data: Uint8Array, seq: number): void {
    if (this.disposed) return;
    this.writtenSeq = seq;
    this.backlog.push({ data, seq });
    this.backlogBytes += data.length;
    while (this.backlogBytes > this.maxBacklog && this.backlog.length > 1) this.backlogBytes -= this.backlog.shift()!.data.length;
    if (!this.parsing) this.parseNext();
  }

  resize(cols: number, rows: number): void {
    if (!this.disposed) this.term.resize(cols, rows);
  }

  /** The screen once everything handed over so far is parsed (not what a flood adds meanwhile). */
  async snapshot(): Promise<ScreenSnapshot> {
    const seq = this.writtenSeq;
    if (this.parsing && this.parsedSeq < seq) await new Promise<void>((resolve) => this.waiting.add({ seq, resolve }));
    const data = this.disposed ? '' : this.serializer.serialize({ scrollback: MIRROR_SCROLLBACK_LINES });
    return { data, seq: this.parsedSeq, cols: this.term.cols, rows: this.term.rows };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.backlog.length = 0;
    this.term.dispose();
    this.settle(true);
  }

  private parseNext(): void {
    const next = this.backlog.shift();
    if (!next || this.disposed) {
      this.parsing = false;
      this.settle(true);
      return;
    }
    this.parsing = true;
    this.backlogBytes -= next.data.length;
    this.term.write(next.data, () => {
      this.parsedSeq = next.seq;
      this.settle(false);
      this.parseNext();
    });
  }

  private settle(all: boolean): void {
    for (const waiter of this.waiting) {
      if (!all && this.parsedSeq < waiter.seq) continue;
      this.waiting.delete(waiter);
      waiter.resolve();
    }
  }
}
