import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decode, isUtf8Sample, SAMPLE_BYTES, sniff, UTF8, type TextEncoding } from '../files/encoding';
import { MAX_WHOLE_FILE_BYTES } from '../files/lineReader';
import type { LineMatcher } from './lineMatcher';
import type { Prefilter } from './prefilter';
import { around } from './regex';

/** Bytes of a line searched: a match further into a giant line is not found, but memory stays bounded. */
export const SEARCHED_LINE_BYTES = 64 * 1024;
/** Files up to this size are read whole into one reused buffer; larger ones are streamed line by line. */
export const WHOLE_READ_BYTES = 64 * 1024 * 1024;

export interface FoundLine {
  line: number;
  /** The line, shortened around the match when long. */
  text: string;
}

export type Scanned =
  | { kind: 'searched'; found: FoundLine[] }
  | { kind: 'skipped' }
  | { kind: 'too-large' }
  /** Larger than WHOLE_READ_BYTES: the caller streams it. */
  | { kind: 'huge' };

export interface Matcher {
  line: LineMatcher;
  prefilter: Prefilter | null;
}

const BASE_BUFFER_BYTES = 1024 * 1024;
/** One buffer per worker, grown to the largest file read in this job: no allocation per file. */
let shared = Buffer.allocUnsafe(BASE_BUFFER_BYTES);

/** After a job: an idle worker does not keep a buffer grown for one big file. */
export function shrinkReadBuffer(): void {
  if (shared.length > 4 * BASE_BUFFER_BYTES) shared = Buffer.allocUnsafe(BASE_BUFFER_BYTES);
}

/** The whole file, in `shared`; null when it is larger than WHOLE_READ_BYTES. */
function readWhole(absolute: string): Buffer | null {
  const fd = openSync(absolute, 'r');
  try {
    let length = readSync(fd, shared, 0, shared.length, 0);
    // A short read of a regular file is its end; only a full buffer needs the size.
    if (length === shared.length) {
      const size = fstatSync(fd).size;
      if (size > WHOLE_READ_BYTES) return null;
      if (size >= shared.length) {
        const bigger = Buffer.allocUnsafe(Math.min(Math.max(size + 1, shared.length * 2), WHOLE_READ_BYTES + 1));
        shared.copy(bigger, 0, 0, length);
        shared = bigger;
      }
      for (let read = 1; read > 0 && length < shared.length; length += read) {
        read = readSync(fd, shared, length, shared.length - length, length);
      }
    }
    return shared.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Searches one regular file as searchText always has (encodings sniffed like read_file, binary
 * files skipped, CR before LF dropped, lines cut at SEARCHED_LINE_BYTES), but with the least work
 * first: the prefilter on raw bytes, then sniffing and decoding only the lines it points at.
 * Stops after `limit` matching lines.
 */
export function scanFile(absolute: string, matcher: Matcher, limit: number): Scanned {
  const bytes = readWhole(absolute);
  if (bytes === null) return { kind: 'huge' };
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let next: ((from: number) => number) | null = null;
  if (matcher.prefilter && !utf16) {
    next = matcher.prefilter.begin(bytes);
    if (next(start) === -1 && (matcher.prefilter.asciiSound || isUtf8(bytes))) return { kind: 'skipped' };
  }
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const complete = bytes.length <= SAMPLE_BYTES;
  if (!utf16 && start === 0 && !sample.includes(0) && isUtf8Sample(sample, complete)) {
    // sniff would say UTF-8 or, with many control bytes, binary. Counting those costs a pass over
    // the sample, worth paying only for a file that has a matching line.
    const found = searchBytes(bytes, 0, UTF8, matcher.line, limit, next);
    if (found.length === 0 || sniff(sample, complete).kind === 'binary') return { kind: 'skipped' };
    return { kind: 'searched', found };
  }
  const sniffed = sniff(sample, complete);
  if (sniffed.kind === 'binary') return { kind: 'skipped' };
  const encoding = sniffed.encoding;
  if (!encoding.byteLines) {
    if (bytes.length > MAX_WHOLE_FILE_BYTES) return { kind: 'too-large' };
    return { kind: 'searched', found: searchText(decode(bytes.subarray(2), encoding), matcher.line, limit) };
  }
  // A non-ASCII literal's UTF-8 bytes say nothing about a GBK file: every line is tried there.
  const trusted = next !== null && (matcher.prefilter?.asciiSound === true || encoding.name === 'utf8');
  return { kind: 'searched', found: searchBytes(bytes, start, encoding, matcher.line, limit, trusted ? next : null) };
}

function searchBytes(
  bytes: Buffer,
  start: number,
  encoding: TextEncoding,
  matcher: LineMatcher,
  limit: number,
  next: ((from: number) => number) | null,
): FoundLine[] {
  const found: FoundLine[] = [];
  const length = bytes.length;
  let line = 1;
  let counted = start;
  let lineStart = start;
  while (lineStart < length) {
    if (next) {
      const at = next(lineStart);
      if (at === -1) break;
      // The candidate's line starts after the last line feed before it.
      const before = at === 0 ? -1 : bytes.lastIndexOf(0x0a, at - 1);
      lineStart = Math.max(lineStart, before + 1);
    }
    for (let feed = bytes.indexOf(0x0a, counted); feed !== -1 && feed < lineStart; feed = bytes.indexOf(0x0a, feed + 1)) line++;
    const feed = bytes.indexOf(0x0a, lineStart);
    const lineEnd = feed === -1 ? length : feed;
    const contentEnd = lineEnd > lineStart && bytes[lineEnd - 1] === 0x0d ? lineEnd - 1 : lineEnd;
    const end = Math.min(contentEnd, lineStart + SEARCHED_LINE_BYTES);
    const text = encoding.name === 'utf8' ? bytes.toString('utf8', lineStart, end) : decode(bytes.subarray(lineStart, end), encoding);
    const match = matcher.find(text);
    if (match) {
      found.push({ line, text: around(text, match.index, match.length) });
      if (found.length >= limit) break;
    }
    counted = lineEnd + 1;
    lineStart = lineEnd + 1;
    line++;
  }
  return found;
}

/** Lines of a decoded text (UTF-16 files), as lineReader's splitText yields them. */
function searchText(text: string, matcher: LineMatcher, limit: number): FoundLine[] {
  const found: FoundLine[] = [];
  let line = 0;
  let from = 0;
  while (from < text.length) {
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    line++;
    const raw = text.slice(from, end);
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const match = matcher.find(content);
    if (match) {
      found.push({ line, text: around(content, match.index, match.length) });
      if (found.length >= limit) break;
    }
    if (newline === -1) break;
    from = newline + 1;
  }
  return found;
}
