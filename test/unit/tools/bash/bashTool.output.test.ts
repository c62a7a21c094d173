import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { bashTool, runInPty } from '../../../../main/tools/bash';
import { makeContext, makeWorkspace } from './support';

const { workspace, remove } = makeWorkspace();
afterAll(remove);

const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', 'pass']);
    return true;
  } catch {
    return false;
  }
})();

describe('bash tool: output for the model', () => {
  it('cuts a flood to head and tail with a note, keeps the result small and memory bounded', { timeout: 120_000 }, async () => {
    const context = makeContext(workspace);
    let liveChars = 0;
    let peakHeapGrowth = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    context.onOutput = (chunk) => {
      liveChars += chunk.length;
      peakHeapGrowth = Math.max(peakHeapGrowth, process.memoryUsage().heapUsed - heapBefore);
    };
    const result = await bashTool.run({ command: 'seq 1 3000000' }, context);
    const lines = result.content.split('\n');
    expect(liveChars).toBe(25_888_896); // every byte streamed live, \r\n line ends included
    expect(result.isError).toBe(false);
    expect(lines.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(lines[199]).toBe('200');
    expect(lines[200]).toMatch(/^\[… 2999600 lines \(21\.8 MB\) left out here; the output had 3000000 lines in all …\]$/);
    // The very end survives the exit: no output is lost when a command floods and quits.
    expect(lines.slice(-3)).toEqual(['2999999', '3000000', '[exit code: 0]']);
    expect(result.content.length).toBeLessThan(8 * 1024);
    // Merely keeping every chunk would take ~26 MB (one-byte strings), every line as a string
    // more; the collector holds ~30 KB, and the garbage of the stream is collected as it goes.
    expect(peakHeapGrowth).toBeLessThan(20 * 1024 * 1024);
  });

  it('keeps the end of a long output printed just before a quick exit', { timeout: 60_000 }, async () => {
    // Without care, on Linux the last few KB go missing in most of these runs (node-pty #72).
    for (let attempt = 0; attempt < 10; attempt++) {
      const result = await bashTool.run({ command: 'seq 1 30000' }, makeContext(workspace));
      expect(result.content).toContain('[… 29600 lines');
      expect(result.content.endsWith('\n29999\n30000\n[exit code: 0]')).toBe(true);
    }
  });

  it.skipIf(!hasPython)('keeps Chinese text intact when its bytes are split across reads', { timeout: 30_000 }, async () => {
    // 7-byte writes with a flush each, and a pause now and then so reads land between them:
    // most writes end in the middle of a 3-byte character.
    const script = [
      'import sys, time',
      "data = (('汉字' * 20 + '\\n') * 100).encode('utf-8')",
      'for i in range(0, len(data), 7):',
      '    sys.stdout.buffer.write(data[i:i + 7]); sys.stdout.buffer.flush()',
      '    if i % 70 == 0: time.sleep(0.001)',
    ].join('\n');
    const context = makeContext(workspace);
    const result = await bashTool.run({ command: `python3 -c "${script}"` }, context);
    const expectedLine = '汉字'.repeat(20);
    const live = context.output.join('');
    expect(live).not.toContain('\uFFFD');
    expect(live).toBe(`${expectedLine}\r\n`.repeat(100));
    expect(result.content).not.toContain('\uFFFD');
    expect(result.content).toBe(`${Array.from({ length: 100 }, () => expectedLine).join('\n')}\n[exit code: 0]`);
  });

  it('strips colours from the result but streams them live', async () => {
    const context = makeContext(workspace);
    const result = await bashTool.run({ command: "printf '\\033[1;31mred\\033[0m and \\033[32mgreen\\033[0m\\n'" }, context);
    expect(result.content).toBe('red and green\n[exit code: 0]');
    expect(context.output.join('')).toContain('\x1b[1;31mred\x1b[0m');
  });

  it('collapses a progress bar to its last state', async () => {
    const result = await bashTool.run(
      { command: "for i in 1 2 3 4 5; do printf '\\rprogress %d/5' $i; sleep 0.05; done; printf '\\n'; echo after" },
      makeContext(workspace),
    );
    expect(result.content).toBe('progress 5/5\nafter\n[exit code: 0]');
  });

  it('does not wait in a pager', { timeout: 20_000 }, async () => {
    const result = await bashTool.run({ command: 'printf "a\\nb\\n" | ${PAGER:-less}' }, makeContext(workspace));
    expect(result.content).toBe('a\nb\n[exit code: 0]');
  });
});

describe('runInPty', () => {
  it('reports exit and output without the tool around it', async () => {
    const chunks: string[] = [];
    const run = await runInPty('echo one; echo two >&2; exit 4', { cwd: workspace, onOutput: (chunk) => chunks.push(chunk) });
    expect(run).toMatchObject({ ending: 'exited', exitCode: 4, signal: null, shell: 'bash' });
    expect(run.output.text).toBe('one\ntwo');
    expect(chunks.join('')).toBe('one\r\ntwo\r\n');
  });
});
