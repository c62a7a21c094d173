import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import type { z } from 'zod';

/*
 * The one JSON Lines format Keel keeps on disk (session transcripts, change indexes): appended as
 * things happen, so a crash loses at most the line being written, and read tolerantly: a damaged
 * line or a record of the wrong shape is skipped with a warning, never repaired.
 */

/** A writer left this long without a record closes its file; the next record opens it again. */
export const IDLE_CLOSE_MS = 1_000;

/**
 * Appends records of one schema's type, each on a line of its own, written before `append`
 * returns. The file stays open while records keep coming: opening and closing it for every line
 * (appendFileSync) was the agent loop's largest cost of its own in the agent-loop bench, with
 * three or four lines a round. It is closed by `close()`, or after IDLE_CLOSE_MS without a record,
 * so a writer nobody closes (a helper's transcript) holds no file open between its bursts.
 */
export class JsonLinesWriter<T> {
  private needsNewline: boolean;
  private fd: number | null = null;
  private lastWrite = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(readonly path: string) {
    this.needsNewline = endsWithoutNewline(path);
  }

  append(record: T): void {
    // A line cut off by a crash must not swallow the next record: start it on a line of its own.
    const line = Buffer.from(`${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`, 'utf8');
    const fd = (this.fd ??= openSync(this.path, 'a', 0o600));
    for (let written = 0; written < line.length;) written += writeSync(fd, line, written);
    this.needsNewline = false;
    this.lastWrite = performance.now();
    this.idleTimer ??= this.closeWhenIdle(IDLE_CLOSE_MS);
  }

  /** Closes the file; a later record opens it again. */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }

  /** One timer for a burst of records: each record only notes its time (no timer set per line). */
  private closeWhenIdle(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const quiet = performance.now() - this.lastWrite;
      if (quiet >= IDLE_CLOSE_MS) this.close();
      else this.idleTimer = this.closeWhenIdle(IDLE_CLOSE_MS - quiet);
    }, ms);
    // An open transcript never keeps the process alive: every line is already written.
    timer.unref();
    return timer;
  }
}

export interface JsonLinesContents<T> {
  records: T[];
  warnings: string[];
}

export interface JsonLinesWording {
  /** Added to "line N is damaged … and was skipped", e.g. what the loss means. */
  damagedConsequence?: string;
  /** "line N {notARecord} and was skipped". */
  notARecord: string;
}

/** Reads every line that parses with `schema`; the rest become warnings naming the file and line. */
export function readJsonLines<S extends z.ZodType>(path: string, schema: S, wording: JsonLinesWording): JsonLinesContents<z.output<S>> {
  const records: z.output<S>[] = [];
  const warnings: string[] = [];
  if (!existsSync(path)) return { records, warnings };
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const cut = index === lines.length - 1 ? ' (it was cut off, probably by a crash while it was written)' : '';
      warnings.push(`${path}: line ${index + 1} is damaged${cut} and was skipped${wording.damagedConsequence ?? ''}.`);
      return;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else warnings.push(`${path}: line ${index + 1} ${wording.notARecord} and was skipped.`);
  });
  return { records, warnings };
}

/** The records among whole lines of a slice of a file; a line cut by the slice is skipped silently. */
export function parseJsonLinesSlice<S extends z.ZodType>(text: string, schema: S): z.output<S>[] {
  return text.split('\n').flatMap((line) => {
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}

function endsWithoutNewline(path: string): boolean {
  if (!existsSync(path)) return false;
  const size = statSync(path).size;
  if (size === 0) return false;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}
