import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInPty } from '../../../../main/tools/bash/runInPty';
import { ScreenLines } from '../../../../main/tools/bash/screenLines';
import { findOnPath } from '../../../../main/platform/findOnPath';
import { outputRendering } from '../../../../main/platform/pty';
import { makeWorkspace } from './support';

async function render(chunks: string[], cols = 40, rows = 5): Promise<string[]> {
  const lines: string[] = [];
  const screen = new ScreenLines((line) => lines.push(line), cols, rows);
  for (const chunk of chunks) screen.push(chunk);
  await screen.finish();
  return lines;
}

describe('ConPTY-style repaints rendered as a screen (15.13)', () => {
  it('keeps the spaces ConPTY sends as cursor moves, and its absolute line positioning', async () => {
    // What ConPTY sends for "hello   world\nsecond line\n": a cursor-forward for the spaces, a
    // cursor position for the next line, an erase to the end of the line.
    expect(await render(['\x1b[?25l\x1b[2J\x1b[mhello\x1b[3Cworld\x1b[K\x1b[2;1Hsecond line\x1b[K\r\n\x1b[?25h'])).toEqual(['hello   world', 'second line']);
  });

  it('a line redrawn in place (a progress bar) is its last state', async () => {
    expect(await render(['progress 10%\r', 'progress 55%\r', 'progress 100%\r\n', 'done\r\n'])).toEqual(['progress 100%', 'done']);
  });

  it('hands on a line wrapped over several rows as one line, and many screens of output in order', async () => {
    const long = 'x'.repeat(95);
    const lines = await render([`${long}\r\n`, ...Array.from({ length: 50 }, (_, i) => `line ${i}\r\n`)], 40, 5);
    expect(lines[0]).toBe(long);
    expect(lines.slice(1)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
  });

  it('loses no line of a flood that arrives in one read, past the scrollback', async () => {
    const flood = Array.from({ length: 5000 }, (_, i) => `${i}\r\n`).join('');
    const lines = await render([flood], 40, 5);
    expect(lines).toHaveLength(5000);
    expect(lines.at(-1)).toBe('4999');
  });

  it('is what Windows uses; Linux and macOS read lines', () => {
    expect(outputRendering('win32')).toBe('screen');
    expect(outputRendering('darwin')).toBe('lines');
    expect(outputRendering('linux')).toBe('lines');
  });
});

describe('runInPty with screen rendering, through a real pty', () => {
  let remove: (() => void) | undefined;
  afterEach(() => remove?.());

  it('keeps cursor-move spaces that line cleaning drops', async () => {
    const ws = makeWorkspace();
    remove = ws.remove;
    const command = "printf 'hello\\033[3Cworld\\n'";
    const screen = await runInPty(command, { cwd: ws.workspace, rendering: 'screen', timeoutMs: 20_000 });
    const lines = await runInPty(command, { cwd: ws.workspace, rendering: 'lines', timeoutMs: 20_000 });
    expect(screen.output.text).toBe('hello   world');
    expect(lines.output.text).toBe('helloworld');
  });

  it('keeps the head and tail of a long output, with every line counted', { timeout: 60_000 }, async () => {
    const ws = makeWorkspace();
    remove = ws.remove;
    const run = await runInPty('seq 1 6000', { cwd: ws.workspace, rendering: 'screen', timeoutMs: 50_000 });
    expect(run.exitCode).toBe(0);
    expect(run.output.totalLines).toBe(6000);
    const text = run.output.text.split('\n');
    expect(text.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(text.at(-1)).toBe('6000');
  });
});

describe('a long PowerShell script goes through a temp file (15.14)', () => {
  let remove: (() => void) | undefined;
  afterEach(() => remove?.());

  it('is written before the shell starts and removed after it ends', async () => {
    const ws = makeWorkspace();
    remove = ws.remove;
    // The same mechanics as `pwsh -File keel-….ps1`, with bash reading the script here.
    const script = join(ws.workspace, 'keel-test.script');
    const invocation = {
      file: findOnPath('bash') ?? '/bin/bash',
      args: [script],
      name: 'bash' as const,
      scriptFile: { path: script, bytes: Buffer.from('echo "from the script file"; exit 3\n') },
    };
    const run = await runInPty('(ignored: the invocation carries the script)', { cwd: ws.workspace, invocation, timeoutMs: 20_000 });
    expect(run.output.text).toBe('from the script file');
    expect(run.exitCode).toBe(3);
    expect(existsSync(script)).toBe(false);
  });
});
