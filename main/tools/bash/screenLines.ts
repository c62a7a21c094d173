import xtermHeadless from '@xterm/headless';
import type { IMarker, Terminal as HeadlessTerminal } from '@xterm/headless';

// The package is CommonJS without static named exports: take them from its default export.
const { Terminal } = xtermHeadless;

/** Rows kept above the screen before they are handed on. */
const SCROLLBACK_ROWS = 2000;
/**
 * Written to the terminal in slices this long, each handed on when rendered: a slice cannot
 * scroll more rows off the screen than the scrollback holds, so no row is trimmed unread.
 */
const SLICE_CHARS = 1024;

/**
 * Windows' ConPTY does not pass a program's output through: it sends a repaint of the screen,
 * with cursor moves instead of newlines and of runs of spaces, and erases instead of blanks. The
 * line cleaner strips escape sequences, which there would merge lines and drop spaces. This
 * renders the stream in a headless terminal of the pty's size, as a person's terminal would, and
 * hands on each line once it has scrolled off the screen (nothing repaints it after that); the
 * lines still on the screen go at the end. A line wrapped over several rows is handed on whole.
 */
export class ScreenLines {
  private readonly terminal: HeadlessTerminal;
  /** First row not yet handed on, as a marker: it moves when old rows are trimmed from the top. */
  private next: IMarker | undefined;
  private nextRow = 0;
  private finished = false;

  constructor(
    private readonly onLine: (line: string) => void,
    cols: number,
    rows: number,
  ) {
    this.terminal = new Terminal({ cols, rows, scrollback: SCROLLBACK_ROWS, allowProposedApi: true, convertEol: false });
  }

  push(text: string): void {
    if (this.finished) return;
    // xterm's parser carries an escape sequence or a surrogate pair over from one slice to the next.
    for (let at = 0; at < text.length; at += SLICE_CHARS) this.terminal.write(text.slice(at, at + SLICE_CHARS), () => this.handOn(false));
  }

  /** Resolves once everything pushed is rendered and every line is handed on. */
  finish(): Promise<void> {
    if (this.finished) return Promise.resolve();
    this.finished = true;
    return new Promise((resolve) => {
      this.terminal.write('', () => {
        this.handOn(true);
        this.terminal.dispose();
        resolve();
      });
    });
  }

  private handOn(atEnd: boolean): void {
    const buffer = this.terminal.buffer.active;
    let start = this.nextRow;
    if (this.next !== undefined) start = this.next.isDisposed ? 0 : this.next.line;
    let end = atEnd ? lastUsedRow(buffer) + 1 : buffer.baseY;
    // A wrapped line continues in the next row: wait for its last row before handing it on.
    if (!atEnd) while (end > start && buffer.getLine(end)?.isWrapped) end--;
    let line = '';
    for (let row = start; row < end; row++) {
      const current = buffer.getLine(row);
      if (current === undefined) continue;
      line += current.translateToString(true);
      if (!buffer.getLine(row + 1)?.isWrapped || row + 1 === end) {
        this.onLine(line);
        line = '';
      }
    }
    if (atEnd) return;
    this.nextRow = end;
    this.next?.dispose();
    // A marker stays on its row when rows above are trimmed; registered relative to the cursor.
    this.next = this.terminal.registerMarker(end - (buffer.baseY + buffer.cursorY));
  }
}

/** The last row with text: the empty rows of the screen below it (and the cursor's after a final newline) are no output. */
function lastUsedRow(buffer: HeadlessTerminal['buffer']['active']): number {
  for (let row = buffer.length - 1; row >= 0; row--) {
    if ((buffer.getLine(row)?.translateToString(true) ?? '') !== '') return row;
  }
  return -1;
}
