import iconv from 'iconv-lite';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../../main/tools/files/writeFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const write = (filePath: string, content: string) => writeFileTool.run({ path: filePath, content }, ws.context);
const bytesOf = (relative: string) => readFileSync(path.join(ws.root, relative));

describe('write_file', () => {
  it('creates a new file as UTF-8 without BOM, creating parent folders', async () => {
    const result = await write('deep/er/new.txt', 'héllo\nworld\n');
    expect(result).toEqual({ isError: false, content: 'Created deep/er/new.txt (2 lines, 13 bytes).' });
    expect(bytesOf('deep/er/new.txt')).toEqual(Buffer.from('héllo\nworld\n', 'utf8'));
    expect(ws.context.changed).toEqual([path.join(ws.root, 'deep/er/new.txt')]);
  });

  it('overwrites a UTF-8 file and says so', async () => {
    ws.file('a.txt', 'old\n');
    const result = await write('a.txt', 'new content\n');
    expect(result).toEqual({ isError: false, content: 'Overwrote a.txt (1 line, 12 bytes).' });
    expect(bytesOf('a.txt').toString()).toBe('new content\n');
  });

  it('keeps the UTF-8 BOM of an existing file', async () => {
    ws.file('bom.txt', Buffer.from('\uFEFFold\n', 'utf8'));
    const result = await write('bom.txt', 'new\n');
    expect(result.content).toBe('Overwrote bom.txt (1 line, 7 bytes, kept UTF-8 with BOM).');
    expect(bytesOf('bom.txt')).toEqual(Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('new\n')]));
  });

  it('keeps GBK for an existing GBK file', async () => {
    ws.file('gbk.txt', iconv.encode('旧的内容，中文文本。\n这是第二行。\n', 'gbk'));
    const result = await write('gbk.txt', '新的内容：你好世界。\n');
    expect(result.isError).toBe(false);
    expect(result.content).toContain('kept GB18030');
    expect(bytesOf('gbk.txt')).toEqual(iconv.encode('新的内容：你好世界。\n', 'gbk'));
  });

  it('keeps UTF-16LE with BOM', async () => {
    ws.file('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('old\n', 'utf16le')]));
    await write('u16.txt', 'néw 你好\n');
    expect(bytesOf('u16.txt')).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('néw 你好\n', 'utf16le')]));
  });

  it('refuses content the file encoding cannot hold, naming the characters, and changes nothing', async () => {
    const original = iconv.encode('こんにちは世界。これはテストです。\n日本語のテキストを表示します。\n', 'shift_jis');
    ws.file('sjis.txt', original);
    const result = await write('sjis.txt', 'こんにちは\nemoji 😀 and 한국어\n');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/encoded as Shift_JIS, which cannot hold "😀" \(U\+1F600, line 2\), "한" \(U\+D55C, line 2\)/);
    expect(result.content).toMatch(/Nothing was written/);
    expect(bytesOf('sjis.txt')).toEqual(original);
    expect(ws.context.changed).toEqual([]);
  });

  it('keeps CRLF line endings when the content uses plain LF', async () => {
    ws.file('win.txt', 'a\r\nb\r\n');
    const result = await write('win.txt', 'x\ny\nz\n');
    expect(result.content).toBe('Overwrote win.txt (3 lines, 9 bytes, kept CRLF line endings).');
    expect(bytesOf('win.txt').toString()).toBe('x\r\ny\r\nz\r\n');
  });

  it('keeps the permissions of the file it replaces', async () => {
    const script = ws.file('run.sh', '#!/bin/sh\necho old\n');
    chmodSync(script, 0o750);
    await write('run.sh', '#!/bin/sh\necho new\n');
    expect(statSync(script).mode & 0o777).toBe(0o750);
  });

  it('refuses a folder as target', async () => {
    mkdirSync(path.join(ws.root, 'src'));
    const result = await write('src', 'x');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"src" is a folder/);
  });

  it('says so when a parent of the path is a file', async () => {
    ws.file('file.txt', 'x');
    const result = await write('file.txt/child.txt', 'x');
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/file\.txt\/child\.txt/);
    expect(bytesOf('file.txt').toString()).toBe('x');
  });

  it('leaves no temp file behind', async () => {
    ws.file('a.txt', 'old');
    await write('a.txt', 'new');
    await write('b.txt', 'new');
    expect(readdirSync(ws.root).sort()).toEqual(['a.txt', 'b.txt']);
  });
});
