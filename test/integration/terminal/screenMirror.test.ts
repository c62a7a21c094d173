import { describe, expect, it } from 'vitest';
import headless from '@xterm/headless';
import { MIRROR_BACKLOG_BYTES, MIRROR_QUIET_MS, MIRROR_SCROLLBACK_LINES, ScreenMirror, keepLastLines } from '../../../main/terminal/screenMirror';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);
const text = (pieces: Array<{ data: Uint8Array }>) => pieces.map((piece) => new TextDecoder().decode(piece.data)).join('');

/** What a fresh xterm.js shows after the snapshot's escape sequences: its lines, trailing blanks trimmed. */
async function restore(data: string, cols: number, rows: number): Promise<string[]> {
  const term = new headless.Terminal({ cols, rows, scrollback: MIRROR_SCROLLBACK_LINES, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
  term.dispose();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

describe('keepLastLines', () => {
  it('keeps what follows the line feed that starts the last N lines, across pieces', () => {
    const pieces = [
      { data: bytes('one\ntwo\nthr'), seq: 1 },
      { data: bytes('ee\nfour\n'), seq: 2 },
    ];
    expect(text(keepLastLines(pieces, 2))).toBe('three\nfour\n');
    expect(keepLastLines(pieces, 2).map((piece) => piece.seq)).toEqual([1, 2]);
    expect(text(keepLastLines(pieces, 3))).toBe('two\nthree\nfour\n');
    expect(text(keepLastLines(pieces, 1))).toBe('four\n');
    // A cut right after a piece's last byte leaves no empty piece behind.
    const whole = [
      { data: bytes('a\nb\n'), seq: 1 },
      { data: bytes('c\n'), seq: 2 },
    ];
    expect(keepLastLines(whole, 1)).toEqual([whole[1]]);
    // Fewer lines than asked for: everything.
    expect(keepLastLines(pieces, 10)).toBe(pieces);
  });
});

describe('ScreenMirror', () => {
  it(
    "after a flood of short lines, a snapshot has the flood's last lines and scrollback, and only what the scrollback holds",
    { timeout: 30_000 },
    async () => {
      const cols = 80;
      const rows = 24;
      const mirror = new ScreenMirror(cols, rows);
      // 400,000 numbered lines (~3 MB) in 64 KB batches, as a `seq` flood arrives: far over the backlog.
      const lines = 400_000;
      let batch = '';
      let seq = 0;
      for (let n = 1; n <= lines; n++) {
        batch += `line ${n}\r\n`;
        if (batch.length >= 65_536 || n === lines) {
          mirror.write(bytes(batch), ++seq);
          batch = '';
        }
      }
      mirror.write(bytes('$ '), ++seq);
      const snapshot = await mirror.snapshot();
      expect(snapshot.seq).toBe(seq);
      const shown = await restore(snapshot.data, cols, rows);
      expect(shown.at(-1)?.trimEnd()).toBe('$');
      expect(shown.at(-2)).toBe(`line ${lines}`);
      // The whole scrollback is there, in order, with nothing older than it holds.
      const first = Number(/^line (\d+)$/.exec(shown[0]!)?.[1]);
      expect(lines - first + 2).toBeGreaterThanOrEqual(MIRROR_SCROLLBACK_LINES);
      expect(shown.slice(0, -1)).toEqual(Array.from({ length: lines - first + 1 }, (_, i) => `line ${first + i}`));
      mirror.dispose();
    },
  );

  it('parses a large backlog in pieces, so timers (a keystroke to the shell) run in between', { timeout: 30_000 }, async () => {
    const mirror = new ScreenMirror(80, 24);
    // A megabyte of 1-character lines takes xterm.js a few hundred milliseconds.
    mirror.write(bytes('y\r\n'.repeat(Math.floor(MIRROR_BACKLOG_BYTES / 3))), 1);
    let timerRan = false;
    let snapshotDone = false;
    const snapshot = mirror.snapshot().then(() => (snapshotDone = true));
    // Queued after the parse started: it runs between two pieces, before the parse is done.
    setTimeout(() => (timerRan = !snapshotDone), 0);
    await snapshot;
    expect(timerRan).toBe(true);
    mirror.dispose();
  });

  it('does not parse in a pause of held-back output, and does once the output is quiet for real', async () => {
    let heldBack = true;
    const mirror = new ScreenMirror(80, 24, () => heldBack);
    mirror.write(bytes('held\r\n'), 1);
    await new Promise((resolve) => setTimeout(resolve, MIRROR_QUIET_MS * 3));
    expect(mirror.pendingBytes).toBe(6);
    heldBack = false;
    mirror.write(bytes('free\r\n'), 2);
    await new Promise((resolve) => setTimeout(resolve, MIRROR_QUIET_MS * 3));
    expect(mirror.pendingBytes).toBe(0);
    mirror.dispose();
  });
});
