import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../../main/tools/files/readFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

const MB = 1024 * 1024;
const LINE_BYTES = 128;
const CHUNKS = 100;
const LINES_PER_CHUNK = MB / LINE_BYTES;
const TOTAL_LINES = CHUNKS * LINES_PER_CHUNK;

/** Line n as the file holds it (without its \n): its number, then filler. */
const lineText = (n: number) => `${String(n).padStart(8, '0')} ${'x'.repeat(LINE_BYTES - 10)}`;

let ws: TempWorkspace;
let hugePath: string;

beforeAll(() => {
  ws = makeWorkspace();
  hugePath = path.join(ws.root, 'huge.log');
  // Written a megabyte at a time from one reused buffer: the test itself must not hold 100 MB either.
  const chunk = Buffer.alloc(MB);
  for (let i = 0; i < LINES_PER_CHUNK; i++) chunk.write(`${lineText(0)}\n`, i * LINE_BYTES, 'latin1');
  const fd = openSync(hugePath, 'w');
  try {
    for (let c = 0; c < CHUNKS; c++) {
      for (let i = 0; i < LINES_PER_CHUNK; i++) chunk.write(String(c * LINES_PER_CHUNK + i + 1).padStart(8, '0'), i * LINE_BYTES, 'latin1');
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
});

afterAll(() => {
  rmSync(hugePath, { force: true });
  ws.cleanup();
});

function memory() {
  global.gc?.();
  const { rss, arrayBuffers } = process.memoryUsage();
  return { rss, arrayBuffers };
}

describe('read_file on a 100 MB file', () => {
  it('reads pages near the end without loading the file', async () => {
    const before = memory();
    let peakRss = before.rss;
    let peakArrayBuffers = before.arrayBuffers;
    const offsets = [TOTAL_LINES - 150, TOTAL_LINES - 50, 400_000];
    const results = [];
    for (const offset of offsets) {
      results.push(await readFileTool.run({ path: 'huge.log', offset, limit: 100 }, ws.context));
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers);
    }

    const [nearEnd, last, middle] = results;
    expect(nearEnd?.isError).toBe(false);
    const lines = nearEnd?.content.split('\n') ?? [];
    expect(lines[0]).toBe(`${String(TOTAL_LINES - 150).padStart(6)}\t${lineText(TOTAL_LINES - 150)}`);
    expect(lines[99]).toBe(`${String(TOTAL_LINES - 51).padStart(6)}\t${lineText(TOTAL_LINES - 51)}`);
    expect(lines[100]).toBe(
      `(Showing lines ${TOTAL_LINES - 150}-${TOTAL_LINES - 51} of ${TOTAL_LINES}. To read on, call read_file with offset ${TOTAL_LINES - 50}.)`,
    );
    const lastLines = last?.content.split('\n') ?? [];
    expect(lastLines).toHaveLength(51);
    expect(lastLines.at(-1)).toBe(`${String(TOTAL_LINES).padStart(6)}\t${lineText(TOTAL_LINES)}`);
    expect(middle?.content.split('\n')[0]).toBe(`${String(400_000).padStart(6)}\t${lineText(400_000)}`);

    // Loading the file would add ~100 MB of Buffer memory (and as much resident); a stream adds a few.
    expect(peakArrayBuffers - before.arrayBuffers).toBeLessThan(20 * MB);
    expect(peakRss - before.rss).toBeLessThan(50 * MB);
  });

  it('shows the start of a 100 MB line without holding the line', async () => {
    // The same file seen as one line: a file of 100 MB of x without any newline, written in chunks.
    const onePath = path.join(ws.root, 'one-line.txt');
    const chunk = Buffer.alloc(MB, 'x');
    const fd = openSync(onePath, 'w');
    try {
      for (let c = 0; c < CHUNKS; c++) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    try {
      const before = memory();
      const result = await readFileTool.run({ path: 'one-line.txt' }, ws.context);
      const after = process.memoryUsage();
      expect(result).toEqual({ isError: false, content: `     1\t${'x'.repeat(2000)} … [line cut at 2000 characters]` });
      expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(20 * MB);
      expect(after.rss - before.rss).toBeLessThan(50 * MB);
    } finally {
      rmSync(onePath, { force: true });
    }
  });
});
