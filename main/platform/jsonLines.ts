import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { z } from 'zod';

/*
 * The one JSON Lines format Keel keeps on disk (session transcripts, change indexes): appended as
 * things happen, so a crash loses at most the line being written, and read tolerantly: a damaged
 * line or a record of the wrong shape is skipped with a warning, never repaired.
 */

/** Appends records of one schema's type, each on a line of its own. */
export class JsonLinesWriter<T> {
  private needsNewline: boolean;

  constructor(readonly path: string) {
    this.needsNewline = endsWithoutNewline(path);
  }

  append(record: T): void {
    // A line cut off by a crash must not swallow the next record: start it on a line of its own.
    const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
    appendFileSync(this.path, line, { encoding: 'utf8', mode: 0o600 });
    this.needsNewline = false;
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
