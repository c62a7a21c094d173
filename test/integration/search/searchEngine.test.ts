import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFilesTool } from '../../../main/tools/files/listFiles';
import { searchText } from '../../../main/tools/files/searchText';
import { listPaths } from '../../../main/tools/search/engine';
import { WHOLE_READ_BYTES } from '../../../main/tools/search/scanFile';
import { makeWorkspace, type TempWorkspace } from '../../unit/tools/files/workspace';

// search_text through its real worker threads, on real files: what a person notices while a search
// runs (the app keeps answering, Stop stops it, a runaway regex ends with a note), never how fast.

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** A line on which RUNAWAY backtracks for far longer than any test runs (each extra `a` doubles it). */
const RUNAWAY_LINE = `${'a'.repeat(40)}!`;
/** Look-ahead keeps it on JavaScript's backtracking engine: the only one that can still run away. */
const RUNAWAY = '(a+)+(?=b)';

/** Counts the ticks of a 5 ms interval while `work` runs: a blocked main thread would count none. */
async function ticksDuring<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    const result = await work();
    return { result, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('search_text in worker threads', { timeout: 60_000 }, () => {
  it('keeps the main thread free during a catastrophic regex, and says the deadline stopped it', async () => {
    ws.file('runaway.txt', `${RUNAWAY_LINE}\n`);
    const { result, ticks } = await ticksDuring(() => searchText({ pattern: RUNAWAY }, ws.context, { deadlineMs: 1500 }));
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      `No matches for /${RUNAWAY}/ in the workspace.\n(Stopped: the search hit its 1.5 s deadline, so it is incomplete. No matches were found before that. ` +
        'A pattern with look-ahead or back-references and nested repetition can take forever on some lines: simplify it, or narrow the path or glob.)',
    );
    // 1.5 s of 5 ms ticks is ~300; a main thread blocked by the regex would manage none at all.
    expect(ticks).toBeGreaterThan(20);
  });

  it.each([
    ['(a+)+$', `${'a'.repeat(40)}!`, `${'a'.repeat(40)}`],
    ['(a|a)+$', `${'a'.repeat(40)}!`, `${'a'.repeat(40)}`],
    ['(a|aa)+$', `${'a'.repeat(40)}!`, `${'a'.repeat(41)}`],
    ['^(\\w+\\s?)+$', `${'word '.repeat(12)}!`, `${'word '.repeat(12)}end`],
    ['(x+x+)+y', 'x'.repeat(40), `${'x'.repeat(40)}y`],
    ['(.*a){25}', 'a'.repeat(24), 'a'.repeat(25)],
    ['((ab)*)*c', `${'ab'.repeat(30)}!`, `${'ab'.repeat(30)}c`],
  ])('answers the catastrophic pattern %s truly, without running into its deadline', async (pattern, missing, matching) => {
    ws.file('miss.txt', `${missing}\n`);
    const result = await searchText({ pattern }, ws.context, { deadlineMs: 20_000 });
    expect(result).toEqual({ isError: false, content: `No matches for /${pattern}/ in the workspace.` });
    ws.file('hit.txt', `${matching}\n`);
    expect((await searchText({ pattern }, ws.context, { deadlineMs: 20_000 })).content).toBe(`hit.txt:1: ${matching}`);
  });

  it('answers Stop with "Stopped" and the matches found before it, while a worker is stuck', async () => {
    ws.file('a.txt', 'needle one\n');
    ws.file('b.txt', `${RUNAWAY_LINE}\nneedle never reached\n`);
    const controller = new AbortController();
    const streamed: string[] = [];
    const context = {
      ...ws.context,
      signal: controller.signal,
      // Stop as soon as the first match has been shown: b.txt's regex is still running then.
      onOutput: (chunk: string) => {
        streamed.push(chunk);
        controller.abort();
      },
    };
    const result = await searchText({ pattern: `needle|${RUNAWAY}` }, context);
    expect(streamed).toEqual(['a.txt:1: needle one\n']);
    expect(result.isError).toBe(true);
    expect(result.content).toBe('a.txt:1: needle one\nStopped: the task was cancelled while searching ".". The 1 matching lines above were found before that.');
  });

  it('answers a search that was stopped before it started without touching the files', async () => {
    ws.file('a.txt', 'needle\n');
    const controller = new AbortController();
    controller.abort();
    const result = await searchText({ pattern: 'needle' }, { ...ws.context, signal: controller.signal });
    expect(result).toEqual({ isError: true, content: 'Stopped: the task was cancelled while searching ".". No matches were found before that.' });
  });

  it('searches normally right after a search whose stuck worker had to be ended', async () => {
    ws.file('runaway.txt', `${RUNAWAY_LINE}\n`);
    await searchText({ pattern: RUNAWAY }, ws.context, { deadlineMs: 300 });
    ws.file('z.txt', 'fine\n');
    expect((await searchText({ pattern: 'fine' }, ws.context)).content).toBe('z.txt:1: fine');
  });

  it('streams every match as it is found, in the order of the final result', async () => {
    for (let i = 0; i < 60; i++) ws.file(`dir${i % 7}/file${String(i).padStart(2, '0')}.txt`, `skip\nhit ${i}\nskip\nhit again ${i}\n`);
    const streamed: string[] = [];
    const result = await searchText({ pattern: 'hit', max_results: 100 }, { ...ws.context, onOutput: (chunk) => streamed.push(chunk) });
    const lines = result.content.split('\n');
    expect(lines.at(-1)).toBe('(Stopped at 100 matches; there are more. Narrow the pattern, path or glob, or raise max_results.)');
    expect(streamed.join('')).toBe(`${lines.slice(0, -1).join('\n')}\n`);
    expect(lines[0]).toBe('dir0/file00.txt:2: hit 0');
  });

  it('searches a file too big to read whole line by line, with the same line numbers', async () => {
    const line = `${'x'.repeat(99)}\n`;
    const lines = Math.ceil((WHOLE_READ_BYTES + 1024 * 1024) / line.length);
    ws.file('huge.log', `${line.repeat(lines)}needle after ${lines} lines\n`);
    expect((await searchText({ pattern: 'needle' }, ws.context)).content).toBe(`huge.log:${lines + 1}: needle after ${lines} lines`);
  });

  it('lists workspace paths for completion under the same ignore rules, capped', async () => {
    ws.file('.gitignore', 'build/\n');
    ws.file('build/out.js', '');
    ws.file('src/a.ts', '');
    ws.file('src/b.ts', '');
    ws.file('README.md', '');
    const all = await listPaths({ root: ws.root, start: ws.root, maxPaths: 10 }, { deadlineMs: 30_000 });
    expect(all).toEqual({ paths: ['.gitignore', 'README.md', 'src/a.ts', 'src/b.ts'], cut: false, startIgnored: false, stopped: null });
    const capped = await listPaths({ root: ws.root, start: ws.root, glob: '*.ts', maxPaths: 1 }, { deadlineMs: 30_000 });
    expect(capped).toEqual({ paths: ['src/a.ts'], cut: true, startIgnored: false, stopped: null });
    expect((await listFilesTool.run({ pattern: '*.ts' }, ws.context)).content).toBe('src/a.ts\nsrc/b.ts');
  });
});
