import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

/**
 * A session's transcript: JSON Lines, appended as things happen, so a crash loses at most the
 * line being written. Reading is tolerant: a damaged line is skipped with a warning.
 */
export class TranscriptWriter {
  private needsNewline: boolean;

  constructor(readonly path: string) {
    this.needsNewline = endsWithoutNewline(path);
  }

  append(record: object): void {
    // A line cut off by a crash must not swallow the next record: start it on a line of its own.
    const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
    appendFileSync(this.path, line, { encoding: 'utf8', mode: 0o600 });
    this.needsNewline = false;
  }
}

export interface TranscriptContents {
  records: Record<string, unknown>[];
  warnings: string[];
}

export function readTranscript(path: string): TranscriptContents {
  const records: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string') {
        records.push(value as Record<string, unknown>);
      } else {
        warnings.push(`${path}: line ${index + 1} is not a transcript record and was skipped.`);
      }
    } catch {
      const cut = index === lines.length - 1 ? ' (it was cut off, probably by a crash while it was written)' : '';
      warnings.push(`${path}: line ${index + 1} is damaged${cut} and was skipped.`);
    }
  });
  return { records, warnings };
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
