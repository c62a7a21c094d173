import { open, type FileHandle } from 'node:fs/promises';
import { bomLength, decode, namedEncoding, SAMPLE_BYTES, sniff, type Sniffed, type TextEncoding } from './encoding';

export interface Line {
  /** 1-based. */
  number: number;
  /** Without its line ending. */
  text: string;
  /** The line was longer than `maxLineBytes`; `text` is only its start. */
  cut: boolean;
}

export interface ReadLinesOptions {
  /** Whether the caller wants line `n`'s text; the other lines are only counted, which costs nothing. */
  wants: (lineNumber: number) => boolean;
  /** Called for each wanted line, in order; returning false stops the read. */
  onLine: (line: Line) => boolean | void;
  /** Bytes kept of one line: the rest is counted, not held, so even a 100 MB line costs no memory. */
  maxLineBytes: number;
  signal?: AbortSignal;
  /** Read in this encoding (an iconv-lite name the caller has checked) instead of detecting one. */
  encoding?: string;
}

export type LinesResult =
  | { kind: 'text'; encoding: TextEncoding; size: number; totalLines: number; stoppedEarly: boolean }
  | { kind: 'binary'; size: number; reason: string }
  | { kind: 'too-large'; encoding: TextEncoding; size: number };

/**
 * Files that must be decoded whole (UTF-16, whose line feeds cannot be found by scanning bytes)
 * and files an edit rewrites are loaded into memory only up to this size.
 */
export const MAX_WHOLE_FILE_BYTES = 32 * 1024 * 1024;

/** The one buffer a streamed read reuses: big enough for few system calls, small enough to ignore. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Reads a regular file line by line in whatever encoding it has. UTF-8 and legacy encodings are
 * streamed through a fixed buffer, so a window of a huge file costs the window, not the file.
 * The caller must have checked that the path is a regular file (opening a FIFO would block).
 */
export async function readLines(absolutePath: string, options: ReadLinesOptions): Promise<LinesResult> {
  const handle = await open(absolutePath, 'r');
  try {
    const size = (await handle.stat()).size;
    const sampleBuffer = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    const { bytesRead } = await handle.read(sampleBuffer, 0, sampleBuffer.length, 0);
    const sample = sampleBuffer.subarray(0, bytesRead);
    const named = options.encoding === undefined ? null : namedEncoding(options.encoding, sample);
    const sniffed: Sniffed = named ? { kind: 'text', encoding: named } : sniff(sample, bytesRead >= size);
    if (sniffed.kind === 'binary') return { kind: 'binary', size, reason: sniffed.reason };
    const encoding = sniffed.encoding;
    if (encoding.byteLines) {
      const scanned = await scanByteLines(handle, bomLength(encoding), encoding, options);
      return { kind: 'text', encoding, size, ...scanned };
    }
    if (size > MAX_WHOLE_FILE_BYTES) return { kind: 'too-large', encoding, size };
    const text = decode((await handle.readFile()).subarray(bomLength(encoding)), encoding);
    return { kind: 'text', encoding, size, ...splitText(text, options) };
  } finally {
    await handle.close();
  }
}

interface Scanned {
  totalLines: number;
  stoppedEarly: boolean;
}

async function scanByteLines(handle: FileHandle, start: number, encoding: TextEncoding, options: ReadLinesOptions): Promise<Scanned> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = start;
  let number = 1;
  let want = options.wants(number);
  let parts: Buffer[] = [];
  let kept = 0;
  let length = 0;
  let lastByte = -1;

  /** Hands the finished line to the caller (when wanted) and starts the next; false means stop. */
  const finishLine = (): boolean => {
    let goOn = true;
    if (want) {
      const contentLength = lastByte === 0x0d ? length - 1 : length;
      const bytes = Buffer.concat(parts, kept).subarray(0, contentLength);
      goOn = options.onLine({ number, text: decode(bytes, encoding), cut: contentLength > bytes.length }) !== false;
    }
    number++;
    parts = [];
    kept = 0;
    length = 0;
    lastByte = -1;
    if (goOn) want = options.wants(number);
    return goOn;
  };

  for (;;) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const view = chunk.subarray(0, bytesRead);
    let from = 0;
    while (from < bytesRead) {
      const newline = view.indexOf(0x0a, from);
      const end = newline === -1 ? bytesRead : newline;
      if (end > from) {
        if (want && kept < options.maxLineBytes) {
          const take = Math.min(end - from, options.maxLineBytes - kept);
          // A copy: the chunk buffer is overwritten by the next read.
          parts.push(Buffer.from(view.subarray(from, from + take)));
          kept += take;
        }
        length += end - from;
        lastByte = view[end - 1] as number;
      }
      if (newline === -1) break;
      if (!finishLine()) return { totalLines: number - 1, stoppedEarly: true };
      from = newline + 1;
    }
  }
  // A last line without a final line feed is still a line.
  if (length > 0 && !finishLine()) return { totalLines: number - 1, stoppedEarly: true };
  return { totalLines: number - 1, stoppedEarly: false };
}

function splitText(text: string, options: ReadLinesOptions): Scanned {
  let number = 0;
  let from = 0;
  while (from < text.length) {
    options.signal?.throwIfAborted();
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    number++;
    if (options.wants(number)) {
      const raw = text.slice(from, end);
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (options.onLine({ number, text: line, cut: false }) === false) return { totalLines: number, stoppedEarly: true };
    }
    if (newline === -1) break;
    from = newline + 1;
  }
  return { totalLines: number, stoppedEarly: false };
}
