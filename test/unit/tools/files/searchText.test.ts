import { symlinkSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchTextTool } from '../../../../main/tools/files/searchText';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

type Input = { pattern: string; path?: string; glob?: string; ignore_case?: boolean; max_results?: number };
const search = (input: Input) => searchTextTool.run(input, ws.context);
const lines = async (input: Input) => (await search(input)).content.split('\n');

describe('search_text', () => {
  it('returns path:line: text for each matching line, in path order', async () => {
    ws.file('src/b.ts', 'const x = 1;\n// TODO: later\n');
    ws.file('a.md', 'nothing\nTODO first\n');
    expect(await lines({ pattern: 'TODO' })).toEqual(['a.md:2: TODO first', 'src/b.ts:2: // TODO: later']);
  });

  it('supports regular expressions and ignore_case', async () => {
    ws.file('a.txt', 'Function load()\nfunction  save()\nfun\n');
    expect(await lines({ pattern: 'function\\s+\\w+\\(' })).toEqual(['a.txt:2: function  save()']);
    expect(await lines({ pattern: 'function\\s+\\w+\\(', ignore_case: true })).toEqual(['a.txt:1: Function load()', 'a.txt:2: function  save()']);
  });

  it('refuses an invalid regular expression with a clear error', async () => {
    const result = await search({ pattern: 'foo(' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^The pattern "foo\(" is not a valid regular expression: .*Escape special characters/);
  });

  it('respects root and nested .gitignore files and skips node_modules and .git', async () => {
    ws.file('.gitignore', '*.log\n');
    ws.file('pkg/.gitignore', 'out/\n');
    ws.file('app.log', 'needle\n');
    ws.file('pkg/out/gen.js', 'needle\n');
    ws.file('pkg/src/main.js', 'needle\n');
    ws.file('node_modules/dep/index.js', 'needle\n');
    ws.file('.git/config', 'needle\n');
    expect(await lines({ pattern: 'needle' })).toEqual(['pkg/src/main.js:1: needle']);
  });

  it('skips binary files', async () => {
    ws.file('blob.bin', Buffer.concat([Buffer.from('needle'), Buffer.alloc(16), Buffer.from('needle')]));
    ws.file('text.txt', 'needle\n');
    expect(await lines({ pattern: 'needle' })).toEqual(['text.txt:1: needle']);
  });

  it('decodes files like read_file does (GBK, UTF-16, BOM, CRLF)', async () => {
    ws.file('gbk.txt', iconv.encode('第一行：你好世界。\n第二行：查找这个词。\n', 'gbk'));
    ws.file('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\r\n查找 here\r\n', 'utf16le')]));
    ws.file('bom.txt', Buffer.from('\uFEFF查找 at start\n', 'utf8'));
    expect(await lines({ pattern: '^查找|查找这' })).toEqual(['bom.txt:1: 查找 at start', 'gbk.txt:2: 第二行：查找这个词。', 'u16.txt:2: 查找 here']);
  });

  it('filters files by glob and searches a sub-folder or a single file', async () => {
    ws.file('src/a.ts', 'hit\n');
    ws.file('src/a.js', 'hit\n');
    ws.file('test/a.ts', 'hit\n');
    expect(await lines({ pattern: 'hit', glob: '*.ts' })).toEqual(['src/a.ts:1: hit', 'test/a.ts:1: hit']);
    expect(await lines({ pattern: 'hit', path: 'src' })).toEqual(['src/a.js:1: hit', 'src/a.ts:1: hit']);
    expect(await lines({ pattern: 'hit', path: 'src/a.js' })).toEqual(['src/a.js:1: hit']);
  });

  it('caps the results at max_results with a note', async () => {
    ws.file('a.txt', Array.from({ length: 10 }, (_, i) => `match ${i + 1}`).join('\n'));
    expect(await lines({ pattern: 'match', max_results: 3 })).toEqual([
      'a.txt:1: match 1',
      'a.txt:2: match 2',
      'a.txt:3: match 3',
      '(Stopped at 3 matches; there are more. Narrow the pattern, path or glob, or raise max_results.)',
    ]);
  });

  it('does not add a note when exactly max_results lines match', async () => {
    ws.file('a.txt', 'match\nmatch\n');
    expect(await lines({ pattern: 'match', max_results: 2 })).toEqual(['a.txt:1: match', 'a.txt:2: match']);
  });

  it('shows a window around a match in a very long line', async () => {
    ws.file('min.js', `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}\n`);
    const [line] = await lines({ pattern: 'NEEDLE' });
    expect(line).toMatch(/^min\.js:1: …a+NEEDLEb+…$/);
    expect(line?.length).toBeLessThan(400);
  });

  it('says when nothing matches', async () => {
    ws.file('a.txt', 'x\n');
    expect(await search({ pattern: 'zzz', glob: '*.txt' })).toEqual({
      isError: false,
      content: 'No matches for /zzz/ in the workspace (files matching "*.txt").',
    });
  });

  // The search skips files by their raw bytes before decoding (a required literal not in them):
  // these pin that the skip never hides a line the line-by-line search found.
  describe('finds the same lines whatever the prefilter skips', () => {
    it('matches ſ and the Kelvin sign for s and k with ignore_case, as the regex does', async () => {
      ws.file('fold.txt', 'a ſtacK here\nnothing\n');
      expect(await lines({ pattern: 'stack', ignore_case: true })).toEqual(['fold.txt:1: a ſtacK here']);
    });

    it('finds a non-ASCII literal in a GBK file and an ASCII one in a Shift_JIS file', async () => {
      ws.file('gbk.txt', iconv.encode('第一行：你好世界。\n第二行：查找这个词。\n', 'gbk'));
      ws.file('sjis.txt', iconv.encode('これは日本語で書かれたファイルです。\n二行目：needle を探します。\n', 'shift_jis'));
      expect(await lines({ pattern: '查找这个' })).toEqual(['gbk.txt:2: 第二行：查找这个词。']);
      expect(await lines({ pattern: 'needle' })).toEqual(['sjis.txt:2: 二行目：needle を探します。']);
    });

    it('skips text that is mostly control bytes as binary, even when the literal is in it', async () => {
      ws.file('controls.txt', `needle ${'\x01'.repeat(200)}\n`);
      ws.file('plain.txt', 'needle\n');
      expect(await lines({ pattern: 'needle' })).toEqual(['plain.txt:1: needle']);
    });

    it('counts lines right around CRLF, a BOM, empty lines and a last line without a line feed', async () => {
      ws.file('crlf.txt', 'one\r\n\r\ntwo end\r\nthree end');
      ws.file('bom.txt', '\uFEFFend first\nsecond\n');
      expect(await lines({ pattern: 'end$' })).toEqual(['crlf.txt:3: two end', 'crlf.txt:4: three end']);
      expect(await lines({ pattern: '^end' })).toEqual(['bom.txt:1: end first']);
      expect(await lines({ pattern: '^$' })).toEqual(['crlf.txt:2: ']);
    });

    it('searches only the first 64 KiB of a giant line, as before', async () => {
      ws.file('giant.txt', `${'x'.repeat(70 * 1024)}LATE\nEARLY ${'y'.repeat(70 * 1024)}\nline three LATE\n`);
      expect((await lines({ pattern: 'LATE|EARLY' })).map((line) => line.slice(0, 20))).toEqual(['giant.txt:2: EARLY y', 'giant.txt:3: line th']);
    });

    it('finds matches on lines after many others, with their line numbers', async () => {
      ws.file('long.txt', `${Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n')}\nneedle at the end\n`);
      expect(await lines({ pattern: 'needle' })).toEqual(['long.txt:5001: needle at the end']);
    });

    it('searches symlinked files inside the workspace, never links out of it or to folders', async () => {
      ws.file('real/a.txt', 'needle inside\n');
      symlinkSync(path.join(ws.root, 'real/a.txt'), path.join(ws.root, 'link.txt'));
      symlinkSync(path.join(ws.root, 'real'), path.join(ws.root, 'folder-link'));
      const outside = path.join(ws.outside, 'secret.txt');
      ws.file('../outside/secret.txt', 'needle outside\n');
      symlinkSync(outside, path.join(ws.root, 'escape.txt'));
      expect(await lines({ pattern: 'needle' })).toEqual(['link.txt:1: needle inside', 'real/a.txt:1: needle inside']);
    });
  });
});
