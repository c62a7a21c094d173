import iconv from 'iconv-lite';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../../../main/tools/files/editFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const edit = (input: { path: string; old_text: string; new_text: string; replace_all?: boolean }) => editFileTool.run(input, ws.context);
const bytesOf = (relative: string) => readFileSync(path.join(ws.root, relative));

describe('edit_file matching', () => {
  it('replaces the one match and reports the changed line', async () => {
    ws.file('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const result = await edit({ path: 'a.ts', old_text: 'const b = 2;', new_text: 'const b = 20;' });
    expect(result).toEqual({ isError: false, content: 'Edited a.ts: replaced 1 occurrence (now line 2).' });
    expect(bytesOf('a.ts').toString()).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(ws.context.changed).toEqual([path.join(ws.root, 'a.ts')]);
  });

  it('reports the line range a multi-line replacement now spans', async () => {
    ws.file('a.txt', 'one\ntwo\nthree\n');
    const result = await edit({ path: 'a.txt', old_text: 'two\n', new_text: 'two\ntwo and a half\n' });
    expect(result.content).toBe('Edited a.txt: replaced 1 occurrence (now lines 2-3).');
    expect(bytesOf('a.txt').toString()).toBe('one\ntwo\ntwo and a half\nthree\n');
  });

  it('refuses 2 matches with their line numbers and leaves the file byte-for-byte unchanged', async () => {
    const original = Buffer.from('x = 1\ny = 2\nx = 1\n');
    ws.file('a.txt', original);
    const result = await edit({ path: 'a.txt', old_text: 'x = 1', new_text: 'x = 9' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^old_text matches 2 places in "a.txt" \(lines 1 and 3\)\. .*replace_all.*The file was not changed\.$/);
    expect(bytesOf('a.txt')).toEqual(original);
    expect(ws.context.changed).toEqual([]);
  });

  it('refuses 0 matches and leaves the file byte-for-byte unchanged', async () => {
    const original = Buffer.from('alpha\nbeta\n');
    ws.file('a.txt', original);
    const result = await edit({ path: 'a.txt', old_text: 'gamma', new_text: 'delta' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^old_text was not found in "a.txt" \(0 matches\)\..*The file was not changed\.$/);
    expect(bytesOf('a.txt')).toEqual(original);
  });

  it('hints when old_text carries read_file line numbers', async () => {
    ws.file('a.txt', 'alpha\nbeta\n');
    const result = await edit({ path: 'a.txt', old_text: '     2\tbeta', new_text: 'b' });
    expect(result.content).toMatch(/includes line numbers from read_file/);
  });

  it('replaces every match with replace_all and lists the lines', async () => {
    ws.file('a.txt', 'foo\nbar foo\nbaz\nfoo foo\n');
    const result = await edit({ path: 'a.txt', old_text: 'foo', new_text: 'qux', replace_all: true });
    expect(result).toEqual({ isError: false, content: 'Edited a.txt: replaced 4 occurrences (now lines 1, 2, 4 and 4).' });
    expect(bytesOf('a.txt').toString()).toBe('qux\nbar qux\nbaz\nqux qux\n');
  });

  it('shifts later line numbers by the lines each replacement adds', async () => {
    ws.file('a.txt', 'x\na\nx\n');
    const result = await edit({ path: 'a.txt', old_text: 'x', new_text: 'x1\nx2', replace_all: true });
    expect(result.content).toBe('Edited a.txt: replaced 2 occurrences (now lines 1-2 and 4-5).');
    expect(bytesOf('a.txt').toString()).toBe('x1\nx2\na\nx1\nx2\n');
  });

  it('refuses an empty old_text', async () => {
    ws.file('a.txt', 'a');
    const result = await edit({ path: 'a.txt', old_text: '', new_text: 'b' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/old_text is empty.*write_file/);
  });

  it('refuses identical old_text and new_text', async () => {
    ws.file('a.txt', 'a');
    const result = await edit({ path: 'a.txt', old_text: 'a', new_text: 'a' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/the same/);
  });

  it('points to write_file for a missing file', async () => {
    const result = await edit({ path: 'nope.txt', old_text: 'a', new_text: 'b' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"nope.txt" does not exist.*write_file/);
  });

  it('refuses a binary file', async () => {
    const original = Buffer.from([1, 2, 0, 0, 3, 4, 0x61]);
    ws.file('bin.dat', original);
    const result = await edit({ path: 'bin.dat', old_text: 'a', new_text: 'b' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/binary/);
    expect(bytesOf('bin.dat')).toEqual(original);
  });

  it('keeps the file mode and leaves no temp file', async () => {
    const file = ws.file('run.sh', '#!/bin/sh\necho old\n');
    chmodSync(file, 0o700);
    await edit({ path: 'run.sh', old_text: 'old', new_text: 'new' });
    expect(statSync(file).mode & 0o777).toBe(0o700);
    expect(readdirSync(ws.root)).toEqual(['run.sh']);
  });
});

describe('edit_file keeps encoding and line endings', () => {
  it('keeps CRLF when old_text and new_text use LF', async () => {
    ws.file('win.txt', 'first\r\nsecond\r\nthird\r\n');
    const result = await edit({ path: 'win.txt', old_text: 'first\nsecond\n', new_text: 'one\ntwo\nthree-ish\n' });
    expect(result.isError).toBe(false);
    expect(bytesOf('win.txt').toString()).toBe('one\r\ntwo\r\nthree-ish\r\nthird\r\n');
  });

  it('keeps a lone LF line in a mostly CRLF file when old_text matches it exactly', async () => {
    ws.file('mixed.txt', 'a\r\nb\r\nc\nd\r\n');
    const result = await edit({ path: 'mixed.txt', old_text: 'c\nd', new_text: 'C\nD' });
    expect(result.isError).toBe(false);
    expect(bytesOf('mixed.txt').toString()).toBe('a\r\nb\r\nC\nD\r\n');
  });

  it('keeps the UTF-8 BOM', async () => {
    ws.file('bom.txt', Buffer.from('\uFEFFhello world\n', 'utf8'));
    await edit({ path: 'bom.txt', old_text: 'world', new_text: 'wörld' });
    expect(bytesOf('bom.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hello wörld\n')]));
  });

  it('edits UTF-16LE with BOM and keeps it', async () => {
    const encode16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    ws.file('u16.txt', encode16('Hello\r\nWorld\r\n'));
    const result = await edit({ path: 'u16.txt', old_text: 'World', new_text: '世界' });
    expect(result.isError).toBe(false);
    expect(bytesOf('u16.txt')).toEqual(encode16('Hello\r\n世界\r\n'));
  });

  it('edits a GBK file and keeps GBK bytes', async () => {
    const before = '第一行：你好世界。\n第二行：这是测试。\n第三行：结束。\n';
    ws.file('gbk.txt', iconv.encode(before, 'gbk'));
    const result = await edit({ path: 'gbk.txt', old_text: '这是测试', new_text: '已经修改' });
    expect(result).toEqual({ isError: false, content: 'Edited gbk.txt: replaced 1 occurrence (now line 2).' });
    expect(bytesOf('gbk.txt')).toEqual(iconv.encode(before.replace('这是测试', '已经修改'), 'gbk'));
  });

  it('refuses new_text a Windows-1252 file cannot hold and leaves it unchanged', async () => {
    const original = iconv.encode('Café déjà vu — naïve façade, résumé.\n', 'windows-1252');
    ws.file('latin.txt', original);
    const result = await edit({ path: 'latin.txt', old_text: 'Café', new_text: '咖啡' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/encoded as Windows-1252, which cannot hold "咖" \(U\+5496, line 1\), "啡"/);
    expect(bytesOf('latin.txt')).toEqual(original);
  });

  it('refuses to rewrite a file whose bytes are not valid in its encoding, leaving it unchanged', async () => {
    // A stray 0xFF in a GBK file decodes to U+FFFD; writing it back would change bytes nobody edited.
    const original = Buffer.concat([iconv.encode('第一行：你好世界。\n第二行：这是测试。\n', 'gbk'), Buffer.from([0xff, 0x0a])]);
    ws.file('broken.txt', original);
    const result = await edit({ path: 'broken.txt', old_text: '这是测试', new_text: '已经修改' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"broken.txt" has bytes that are not valid GB18030.*The file was not changed\./);
    expect(bytesOf('broken.txt')).toEqual(original);
  });
});
