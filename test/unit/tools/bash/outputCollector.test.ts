import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_LIMITS, OutputCollector, shapeOutput } from '../../../../main/tools/bash/outputCollector';

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('shapeOutput', () => {
  it('returns short output unchanged, without a note', () => {
    const shaped = shapeOutput('one\r\ntwo\r\nthree\r\n');
    expect(shaped.text).toBe('one\ntwo\nthree');
    expect(shaped).toMatchObject({ totalLines: 3, omittedLines: 0, omittedBytes: 0 });
  });

  it('treats an unterminated last line as a line and keeps empty lines', () => {
    expect(shapeOutput('a\n\nb').text).toBe('a\n\nb');
    expect(shapeOutput('').text).toBe('');
  });

  it('cuts long output to the first and last 200 lines with a note of what was left out', () => {
    const input = lines(1, 10_000).join('\n') + '\n';
    const shaped = shapeOutput(input);
    const out = shaped.text.split('\n');
    expect(out.slice(0, 200)).toEqual(lines(1, 200));
    expect(out.slice(-200)).toEqual(lines(9801, 10_000));
    expect(out).toHaveLength(401);
    const omittedBytes = lines(201, 9800).reduce((sum, line) => sum + line.length + 1, 0);
    expect(shaped).toMatchObject({ totalLines: 10_000, omittedLines: 9600, omittedBytes });
    expect(out[200]).toBe(`[… 9600 lines (${(omittedBytes / 1024).toFixed(1)} KB) left out here; the output had 10000 lines in all …]`);
  });

  it('bounds head and tail by bytes as well as lines', () => {
    const long = 'x'.repeat(999);
    const shaped = shapeOutput(Array.from({ length: 100 }, () => long).join('\n'));
    const kept = shaped.text.split('\n').filter((line) => line === long);
    expect(kept).toHaveLength(30); // 15 of 1000 bytes in the head, 15 in the tail
    expect(shaped.omittedLines).toBe(70);
    expect(shaped.text.length).toBeLessThan(DEFAULT_OUTPUT_LIMITS.headBytes + DEFAULT_OUTPUT_LIMITS.tailBytes + 200);
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    expect(shapeOutput('汉字\n🎉\n').totalBytes).toBe(7 + 5);
  });

  it('cuts a single very long line and says how much', () => {
    const shaped = shapeOutput('a'.repeat(10_000));
    expect(shaped.text).toBe(`${'a'.repeat(4000)} [… 6000 more characters of this line cut]`);
  });
});

describe('OutputCollector', () => {
  it('joins a line and an escape sequence split across chunks', () => {
    const collector = new OutputCollector();
    for (const chunk of ['hel', 'lo \x1b[3', '1mred\x1b', '[0m wor', 'ld\r', '\nnext']) collector.push(chunk);
    expect(collector.finish().text).toBe('hello red world\nnext');
  });

  it('keeps the last state of a progress bar redrawn across many chunks, in bounded memory', () => {
    const collector = new OutputCollector();
    let peak = 0;
    for (let i = 0; i <= 100_000; i++) {
      collector.push(`\r\x1b[32mdownloading ${'#'.repeat(i % 50)} ${i}\x1b[0m`);
      peak = Math.max(peak, collector.retainedChars);
    }
    collector.push('\r\n');
    expect(collector.finish().text).toBe(`downloading ${'#'.repeat(0)} 100000`);
    expect(peak).toBeLessThanOrEqual(DEFAULT_OUTPUT_LIMITS.maxPendingChars + 100);
  });

  it('holds a bounded amount however long a line without newline grows', () => {
    const collector = new OutputCollector();
    let peak = 0;
    for (let i = 0; i < 2000; i++) {
      collector.push('y'.repeat(4096));
      peak = Math.max(peak, collector.retainedChars);
    }
    const shaped = collector.finish();
    expect(peak).toBeLessThanOrEqual(DEFAULT_OUTPUT_LIMITS.maxPendingChars + 4096);
    expect(shaped.text).toBe(`${'y'.repeat(4000)} [… ${2000 * 4096 - 4000} more characters of this line cut]`);
  });

  it('retains a bounded amount during a flood of lines', () => {
    const collector = new OutputCollector();
    let peak = 0;
    for (let chunk = 0; chunk < 2000; chunk++) {
      collector.push(lines(chunk * 500, chunk * 500 + 499).join('\r\n') + '\r\n');
      peak = Math.max(peak, collector.retainedChars);
    }
    const shaped = collector.finish();
    expect(peak).toBeLessThan(DEFAULT_OUTPUT_LIMITS.headBytes + DEFAULT_OUTPUT_LIMITS.tailBytes);
    expect(shaped.totalLines).toBe(1_000_000);
    expect(shaped.omittedLines).toBe(1_000_000 - 400);
    expect(shaped.text.endsWith('\n999999')).toBe(true);
  });
});
