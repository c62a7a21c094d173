import { appendFileSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_CLOSE_MS, JsonLinesWriter } from '../../../main/platform/jsonLines';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'keel-jsonl-'))));
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function lines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** Whether this process has `path` open (Linux: its links in /proc/self/fd). */
function isOpen(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

describe('a JSON Lines writer', () => {
  it('has every record whole on disk when append returns, and goes on at the end after close', () => {
    const path = join(dir, 'records.jsonl');
    const writer = new JsonLinesWriter<{ n: number; text: string }>(path);
    writer.append({ n: 1, text: 'first' });
    expect(lines(path)).toEqual([{ n: 1, text: 'first' }]);
    // Another writer of the same file (a second start of Keel) appends after it, never over it.
    appendFileSync(path, `${JSON.stringify({ n: 2, text: 'other' })}\n`);
    writer.append({ n: 3, text: 'é'.repeat(70_000) });
    expect(lines(path)).toHaveLength(3);
    writer.close();
    writer.append({ n: 4, text: 'after close' });
    expect(lines(path)).toEqual([
      { n: 1, text: 'first' },
      { n: 2, text: 'other' },
      { n: 3, text: 'é'.repeat(70_000) },
      { n: 4, text: 'after close' },
    ]);
    writer.close();
  });

  it('starts its first record on a line of its own after a line a crash cut off', () => {
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2, "cut');
    const writer = new JsonLinesWriter<{ n: number }>(path);
    writer.append({ n: 3 });
    writer.append({ n: 4 });
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2, "cut\n{"n":3}\n{"n":4}\n');
  });

  it.skipIf(process.platform !== 'linux')('holds its file open only until close, or until it has been idle a while', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const path = join(dir, 'open.jsonl');
    const writer = new JsonLinesWriter<{ n: number }>(path);
    writer.append({ n: 1 });
    expect(isOpen(path)).toBe(true);
    writer.close();
    expect(isOpen(path)).toBe(false);

    writer.append({ n: 2 });
    vi.advanceTimersByTime(IDLE_CLOSE_MS / 2);
    writer.append({ n: 3 });
    vi.advanceTimersByTime(IDLE_CLOSE_MS / 2 + 1);
    // Half the idle time since the last record: still open for the next one.
    expect(isOpen(path)).toBe(true);
    vi.advanceTimersByTime(IDLE_CLOSE_MS);
    expect(isOpen(path)).toBe(false);
    writer.append({ n: 4 });
    writer.close();
    expect(lines(path)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });
});
