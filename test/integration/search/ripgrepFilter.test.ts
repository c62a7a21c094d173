import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFiles, type SearchRequest } from '../../../main/tools/search/engine';
import { listCandidates, ripgrepProgram } from '../../../main/tools/search/ripgrep';
import { makeWorkspace, type TempWorkspace } from '../../unit/tools/files/workspace';

// ripgrep only picks the files the workers search: every search must answer exactly as the
// workers alone do (the same matches in the same order, caps, notes), on a tree full of the cases
// where ripgrep's own rules differ from Keel's.

const rg = ripgrepProgram();
if (rg === null) console.warn('ripgrepFilter.test.ts: skipped, ripgrep (rg) is not on the PATH (apt-get install ripgrep)');

let ws: TempWorkspace;
let secret: string;

beforeAll(() => {
  ws = makeWorkspace();
  // Keel's .gitignore matching ignores letter case (ripgrep's does not); `!keep.log` re-includes.
  ws.file('.gitignore', '*.log\n!keep.log\nbuild/\nIGNORED.TXT\n');
  ws.file('ignored.txt', 'needle in a file only ripgrep would search\n');
  ws.file('app.log', 'needle in a log\n');
  ws.file('keep.log', 'needle kept\n');
  ws.file('build/out.js', 'needle in build output\n');
  ws.file('pkg/.gitignore', 'out/\n');
  ws.file('pkg/out/gen.ts', 'needle generated\n');
  ws.file('pkg/src/a.ts', 'const a = 1;\n// needle in a.ts\nhaystack\n');
  ws.file('pkg/src/b.md', 'Needle with a capital\n');
  ws.file('pkg/a.txt', 'needle beside the folder a.txt sorts after\n');
  // .git/info/exclude applies at the root only; ripgrep is told to read none.
  ws.file('.git/info/exclude', 'excluded/\n');
  ws.file('.git/HEAD', 'needle inside .git\n');
  ws.file('excluded/x.txt', 'needle excluded\n');
  ws.file('node_modules/m/index.js', 'needle in a package\n');
  // A nested repository: ripgrep stops applying the outer .gitignore there, Keel does not.
  mkdirSync(path.join(ws.root, 'nested', '.git'), { recursive: true });
  ws.file('nested/inner.log', 'needle in a nested log\n');
  ws.file('nested/code.ts', 'needle nested\n');
  // Links: to a file inside (listed by Keel), to a folder (not followed), to a file outside (not listed).
  symlinkSync(path.join(ws.root, 'pkg', 'src', 'a.ts'), path.join(ws.root, 'link.ts'));
  symlinkSync(path.join(ws.root, 'pkg'), path.join(ws.root, 'linkdir'));
  writeFileSync(path.join(ws.outside, 'o.txt'), 'needle outside\n');
  symlinkSync(path.join(ws.outside, 'o.txt'), path.join(ws.root, 'outside.txt'));
  symlinkSync(path.join(ws.root, 'nowhere'), path.join(ws.root, 'dangling.txt'));
  secret = ws.file('config/.env', 'needle=secret\n');
  ws.file('config/settings.json', '{"needle": true}\n');
  // Encodings and binaries: UTF-16 with BOM, GBK, UTF-8 BOM, CRLF, NUL early (binary) and late (text).
  ws.file('enc/utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first\r\nneedle in UTF-16\r\n', 'utf16le')]));
  ws.file('enc/gbk.txt', iconv.encode('第一行\n查找 needle 文本\n', 'gbk'));
  ws.file('enc/bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle after a BOM\n')]));
  ws.file('enc/crlf.txt', 'one\r\nneedle\r\n');
  ws.file('enc/early.bin', Buffer.concat([Buffer.from('needle\0binary\n')]));
  ws.file('enc/late.txt', Buffer.concat([Buffer.from(`${'x'.repeat(70_000)}\n`), Buffer.from('\0\nneedle after a late NUL\n')]));
  // The folder enc/ comes before enc.txt in the walk, though `enc.txt` < `enc/…` as plain strings.
  ws.file('enc.txt', 'needle after the folder enc\n');
  ws.file('long.txt', `${'y'.repeat(500)} needle at the end of a long line\n`);
  ws.file('fold.txt', 'ſession with a long s\nSESSION\n');
  ws.file('many.txt', 'needle 1\nneedle 2\nneedle 3\n');
  ws.file('odd name [1].txt', 'needle in an odd name\n');
  if (process.getuid?.() !== 0) chmodSync(ws.file('locked.txt', 'needle locked\n'), 0o000);
});

afterAll(() => ws.cleanup());

function request(pattern: string, options: Partial<SearchRequest> & { path?: string } = {}): SearchRequest {
  const start = options.path ? path.join(ws.root, options.path) : ws.root;
  return { root: ws.root, start, single: false, pattern, ignoreCase: false, hidden: [secret], maxResults: 200, ...options };
}

const searches: [string, string, Partial<SearchRequest> & { path?: string }][] = [
  ['a literal', 'needle', {}],
  ['a literal, capped', 'needle', { maxResults: 3 }],
  ['ignoring case', 'NEEDLE', { ignoreCase: true }],
  ['ignoring case, with s and k', 'session', { ignoreCase: true }],
  ['two branches', 'haystack|needle', {}],
  ['a regex with a literal', 'need(le|ed)\\s+\\w+', {}],
  ['a back-reference', '(e)\\1dle', {}],
  ['a look-ahead', 'needle(?= in)', {}],
  ['no match', 'zqxjv_never_here', {}],
  ['a file-name glob', 'needle', { glob: '*.ts' }],
  ['a brace glob', 'needle', { glob: '*.{ts,md}' }],
  ['a glob with a slash', 'needle', { glob: 'src/**', path: 'pkg' }],
  ['a subfolder', 'needle', { path: 'pkg' }],
  ['an ignored folder asked for', 'needle', { path: 'build' }],
];

describe.skipIf(rg === null)('search_text with ripgrep picking the files (skipped without rg on the PATH)', { timeout: 60_000 }, () => {
  it.each(searches)('answers %s exactly as the workers alone do', async (_label, pattern, options) => {
    const alone = await searchFiles(request(pattern, { ...options, ripgrep: false }), { deadlineMs: 30_000 });
    const picked = await searchFiles(request(pattern, options), { deadlineMs: 30_000 });
    expect(picked).toEqual(alone);
  });

  it("finds what only Keel's rules find, and nothing they exclude", async () => {
    const found = await searchFiles(request('needle'), { deadlineMs: 30_000 });
    const files = [...new Set(found.matches.map((match) => match.relative))];
    expect(files).toEqual([
      'config/settings.json',
      'enc/bom.txt',
      'enc/crlf.txt',
      'enc/gbk.txt',
      'enc/late.txt',
      'enc/utf16.txt',
      'enc.txt',
      'keep.log',
      'link.ts',
      'long.txt',
      'many.txt',
      'nested/code.ts',
      'odd name [1].txt',
      'pkg/a.txt',
      'pkg/src/a.ts',
    ]);
  });

  it('lets ripgrep list more files than Keel searches, never fewer', async () => {
    const listed = await listCandidates(request('needle'), { deadlineMs: 30_000 });
    expect(listed.kind).toBe('listed');
    const files = listed.kind === 'listed' ? listed.files : [];
    // Kept out afterwards by Keel's rules: case-blind .gitignore, .git/info/exclude, the nested repository's log.
    expect(files).toEqual(expect.arrayContaining(['ignored.txt', 'excluded/x.txt', 'nested/inner.log', 'link.ts']));
    expect(files).not.toContain('config/.env');
  });

  it('answers Stop while ripgrep runs, and ends it', async () => {
    const controller = new AbortController();
    const searching = searchFiles(request('needle'), { signal: controller.signal, deadlineMs: 30_000 });
    controller.abort();
    expect(await searching).toEqual({ matches: [], more: false, tooLarge: [], unreadable: [], stopped: 'aborted' });
  });
});
