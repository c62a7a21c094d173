import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_MAX_ENTRIES, listFilesTool } from '../../../../main/tools/files/listFiles';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const list = (input: { pattern?: string; path?: string } = {}) => listFilesTool.run(input, ws.context);
const paths = async (input: { pattern?: string; path?: string } = {}) => (await list(input)).content.split('\n');

describe('list_files', () => {
  it('lists every file, sorted, with dotfiles, relative to the workspace', async () => {
    ws.file('b.txt', '');
    ws.file('a/z.ts', '');
    ws.file('a/b/c.ts', '');
    ws.file('.env.example', '');
    expect(await paths()).toEqual(['.env.example', 'a/b/c.ts', 'a/z.ts', 'b.txt']);
  });

  it('always skips .git and node_modules, at any depth', async () => {
    ws.file('.git/HEAD', 'ref');
    ws.file('node_modules/pkg/index.js', '');
    ws.file('packages/app/node_modules/dep/index.js', '');
    ws.file('packages/app/index.js', '');
    expect(await paths()).toEqual(['packages/app/index.js']);
  });

  it('respects the root .gitignore, including folder rules and negations', async () => {
    ws.file('.gitignore', 'dist/\n*.log\n!keep.log\n');
    ws.file('dist/app.js', '');
    ws.file('src/dist.ts', '');
    ws.file('debug.log', '');
    ws.file('keep.log', '');
    ws.file('src/index.ts', '');
    expect(await paths()).toEqual(['.gitignore', 'keep.log', 'src/dist.ts', 'src/index.ts']);
  });

  it('respects nested .gitignore files relative to their own folder', async () => {
    ws.file('.gitignore', '*.tmp\n');
    ws.file('pkg/.gitignore', 'generated/\n/local.txt\n!important.tmp\n');
    ws.file('pkg/generated/out.ts', '');
    ws.file('pkg/local.txt', '');
    ws.file('pkg/sub/local.txt', '');
    ws.file('pkg/important.tmp', '');
    ws.file('pkg/other.tmp', '');
    ws.file('generated/root-level.ts', '');
    expect(await paths()).toEqual(['.gitignore', 'generated/root-level.ts', 'pkg/.gitignore', 'pkg/important.tmp', 'pkg/sub/local.txt']);
  });

  it('applies .gitignore files above the listed folder', async () => {
    ws.file('.gitignore', '*.secret\n');
    ws.file('src/a.ts', '');
    ws.file('src/b.secret', '');
    expect(await paths({ path: 'src' })).toEqual(['src/a.ts']);
  });

  it('respects .git/info/exclude', async () => {
    ws.file('.git/info/exclude', 'scratch/\n');
    ws.file('scratch/notes.md', '');
    ws.file('README.md', '');
    expect(await paths()).toEqual(['README.md']);
  });

  it('lists an ignored folder when asked for it explicitly, with a note', async () => {
    ws.file('.gitignore', 'build/\n');
    ws.file('build/out.js', '');
    expect(await paths({ path: 'build' })).toEqual(['build/out.js', '(Note: "build" is ignored by .gitignore; listed because it was asked for.)']);
  });

  it('matches a slash-less pattern against names at any depth, and others against the path', async () => {
    ws.file('a.ts', '');
    ws.file('src/b.ts', '');
    ws.file('src/c.js', '');
    ws.file('src/deep/d.ts', '');
    expect(await paths({ pattern: '*.ts' })).toEqual(['a.ts', 'src/b.ts', 'src/deep/d.ts']);
    expect(await paths({ pattern: 'src/*.ts' })).toEqual(['src/b.ts']);
    expect(await paths({ pattern: '**/*.{js,ts}', path: 'src' })).toEqual(['src/b.ts', 'src/c.js', 'src/deep/d.ts']);
  });

  it('lists symlinked files inside the workspace but does not follow links to folders or outside', async () => {
    ws.file('real/a.txt', '');
    symlinkSync(path.join(ws.root, 'real/a.txt'), path.join(ws.root, 'alias.txt'));
    symlinkSync(path.join(ws.root, 'real'), path.join(ws.root, 'loop'));
    ws.file('../outside/secret.txt', '');
    symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'escape.txt'));
    symlinkSync(ws.outside, path.join(ws.root, 'escape-dir'));
    expect(await paths()).toEqual(['alias.txt', 'real/a.txt']);
  });

  it(`caps the list at ${LIST_MAX_ENTRIES} with a note`, async () => {
    for (let i = 0; i < LIST_MAX_ENTRIES + 5; i++) ws.file(`many/f${String(i).padStart(4, '0')}.txt`, '');
    const lines = await paths();
    expect(lines).toHaveLength(LIST_MAX_ENTRIES + 1);
    expect(lines.at(-2)).toBe(`many/f${String(LIST_MAX_ENTRIES - 1).padStart(4, '0')}.txt`);
    expect(lines.at(-1)).toMatch(/Showing the first 1000 files; there are more/);
  });

  it('treats an empty path as the workspace', async () => {
    ws.file('a.txt', '');
    expect(await paths({ path: '' })).toEqual(['a.txt']);
  });

  it('says when nothing matches', async () => {
    mkdirSync(path.join(ws.root, 'empty'));
    expect(await list({ path: 'empty' })).toEqual({ isError: false, content: 'No files match "**/*" in "empty" (ignored files are left out).' });
  });

  it('refuses a file as path', async () => {
    ws.file('a.txt', '');
    const result = await list({ path: 'a.txt' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"a.txt" is a file.*read_file/);
  });
});
