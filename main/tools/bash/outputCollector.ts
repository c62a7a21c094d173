import { cleanLine, cleanPlainLine, isPlainAscii } from './cleanLine';
import { utf8Length } from './utf8Length';

/** How much of a command's output is kept for the model. */
export interface OutputLimits {
  /** The first lines are kept up to both bounds... */
  headLines: number;
  headBytes: number;
  /** ...and the last lines up to both bounds; what falls between is counted, not kept. */
  tailLines: number;
  tailBytes: number;
  /** A longer line (minified code, a one-line JSON dump) keeps its start and says how much was cut. */
  maxLineChars: number;
  /**
   * A line still waiting for its newline is held raw (escapes and `\r` included) up to this many
   * characters; past that only its start is kept. This is what keeps a flood without newlines
   * (`yes | tr -d '\n'`) from growing memory.
   */
  maxPendingChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: Readonly<OutputLimits> = {
  headLines: 200,
  headBytes: 15 * 1024,
  tailLines: 200,
  tailBytes: 15 * 1024,
  maxLineChars: 4000,
  maxPendingChars: 64 * 1024,
};

/** Output as the model sees it, with the counts behind any cut. */
export interface ShapedOutput {
  /** Head, the note about the cut (if any) and tail, joined with newlines; no trailing newline. */
  text: string;
  /** Cleaned lines in the whole output. */
  totalLines: number;
  /** UTF-8 bytes of the cleaned output (each line counted with its newline). */
  totalBytes: number;
  /** Lines, and their bytes, left out between head and tail. */
  omittedLines: number;
  omittedBytes: number;
}

/**
 * Turns a stream of terminal text into bounded, cleaned output: lines are cleaned as they
 * complete (so a progress bar redrawn over megabytes costs one line and does not crowd the
 * head out), the head is kept, the tail rolls, and the middle is only counted. Memory stays
 * within the limits however much the command prints.
 */
export class OutputCollector {
  private readonly limits: OutputLimits;
  private readonly head: string[] = [];
  private headBytes = 0;
  private headClosed = false;
  // The tail is a window [tailStart, tail.length) of this array, compacted now and then, so that
  // dropping the oldest line is not an O(n) shift for every line of a flood.
  private tail: string[] = [];
  private tailSizes: number[] = [];
  private tailStart = 0;
  private tailBytes = 0;
  private pending = '';
  /** Raw characters of the pending line dropped because it outgrew maxPendingChars. */
  private pendingDropped = 0;
  private totalLines = 0;
  private totalBytes = 0;
  private omittedLines = 0;
  private omittedBytes = 0;

  constructor(limits: Partial<OutputLimits> = {}) {
    this.limits = { ...DEFAULT_OUTPUT_LIMITS, ...limits };
  }

  /** Adds decoded terminal text; it may end in the middle of a line or of an escape sequence. */
  push(text: string): void {
    // Checked once per chunk rather than per line: the common flood is plain ASCII, whose lines
    // need neither escape stripping nor a UTF-8 byte count.
    const plain = isPlainAscii(text);
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const piece = text.slice(start, newline);
      // Most lines of a flood arrive whole: no need to pass them through the pending buffer.
      if (this.pending === '' && this.pendingDropped === 0) {
        const line = this.cutLine(plain ? cleanPlainLine(piece) : cleanLine(piece), 0);
        this.addLine(line, plain && line === piece ? line.length + 1 : undefined);
      } else {
        this.appendPending(piece);
        this.commitLine();
      }
      start = newline + 1;
    }
    if (start < text.length) this.appendPending(start === 0 ? text : text.slice(start));
  }

  /** Ends the stream (an unterminated last line counts as a line) and renders what was kept. */
  finish(): ShapedOutput {
    if (this.pending !== '' || this.pendingDropped > 0) this.commitLine();
    const tail = this.tail.slice(this.tailStart);
    const parts = [...this.head];
    if (this.omittedLines > 0) parts.push(omissionNote(this.omittedLines, this.omittedBytes, this.totalLines));
    parts.push(...tail);
    return {
      text: parts.join('\n'),
      totalLines: this.totalLines,
      totalBytes: this.totalBytes,
      omittedLines: this.omittedLines,
      omittedBytes: this.omittedBytes,
    };
  }

  /** Characters currently held (head, tail and the pending line): bounded by the limits. */
  get retainedChars(): number {
    let chars = this.pending.length;
    for (const line of this.head) chars += line.length;
    for (let i = this.tailStart; i < this.tail.length; i++) chars += this.tail[i]?.length ?? 0;
    return chars;
  }

  private appendPending(text: string): void {
    if (this.pendingDropped > 0) {
      this.pendingDropped += text.length;
      return;
    }
    this.pending += text;
    if (this.pending.length <= this.limits.maxPendingChars) return;
    this.pending = dropOverwrittenStates(this.pending);
    if (this.pending.length <= this.limits.maxPendingChars) return;
    this.pendingDropped = this.pending.length - this.limits.maxPendingChars;
    this.pending = this.pending.slice(0, this.limits.maxPendingChars);
  }

  private commitLine(): void {
    const line = this.cutLine(cleanLine(this.pending), this.pendingDropped);
    this.pending = '';
    this.pendingDropped = 0;
    this.addLine(line);
  }

  private cutLine(line: string, alreadyDropped: number): string {
    const cut = Math.max(0, line.length - this.limits.maxLineChars) + alreadyDropped;
    if (cut === 0) return line;
    return `${line.slice(0, this.limits.maxLineChars)} [… ${cut} more characters of this line cut]`;
  }

  /** `bytes` (with the newline) when already known. */
  private addLine(line: string, bytes = utf8Length(line) + 1): void {
    this.totalLines++;
    this.totalBytes += bytes;
    const { headLines, headBytes, tailLines, tailBytes } = this.limits;
    if (!this.headClosed && this.head.length < headLines && this.headBytes + bytes <= headBytes) {
      this.head.push(line);
      this.headBytes += bytes;
      return;
    }
    this.headClosed = true;
    this.tail.push(line);
    this.tailSizes.push(bytes);
    this.tailBytes += bytes;
    // The newest line always stays, even alone over the byte bound: the end is what matters most.
    while (this.tail.length - this.tailStart > 1 && (this.tail.length - this.tailStart > tailLines || this.tailBytes > tailBytes)) {
      const size = this.tailSizes[this.tailStart] ?? 0;
      this.tailBytes -= size;
      this.omittedLines++;
      this.omittedBytes += size;
      this.tailStart++;
    }
    if (this.tailStart > 1024) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailSizes = this.tailSizes.slice(this.tailStart);
      this.tailStart = 0;
    }
  }
}

/** The whole of a finished output, shaped at once: same rules as the streaming collector. */
export function shapeOutput(text: string, limits: Partial<OutputLimits> = {}): ShapedOutput {
  const collector = new OutputCollector(limits);
  collector.push(text);
  return collector.finish();
}

/**
 * A redrawn line (`\r`) far past the pending bound: the states before the last visible one are
 * already overwritten, so they can go without changing what cleanLine would keep.
 */
function dropOverwrittenStates(pending: string): string {
  const segments = pending.split('\r');
  // A segment cut inside an escape sequence may pass for visible; the worst that does is drop an
  // earlier state of a line over 64 K characters long, which is acceptable.
  for (let i = segments.length - 1; i > 0; i--) {
    if (cleanLine(segments[i] ?? '').trim() !== '') return '\r' + segments.slice(i).join('\r');
  }
  return pending;
}

function omissionNote(lines: number, bytes: number, totalLines: number): string {
  return `[… ${lines} lines (${formatBytes(bytes)}) left out here; the output had ${totalLines} lines in all …]`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
