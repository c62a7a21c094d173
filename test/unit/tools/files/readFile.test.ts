import iconv from 'iconv-lite';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../../main/tools/files/readFile';
import { makeWorkspace, type TempWorkspace } from './workspace';

let ws: TempWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const read = (input: { path: string; offset?: number; limit?: number; encoding?: string }) => readFileTool.run(input, ws.context);
const numbered = (from: number, lines: string[]) => lines.map((l, i) => `${String(from + i).padStart(6)}\t${l}`).join('\n');

describe('read_file output', () => {
  it('numbers lines like cat -n and drops the final newline', async () => {
    ws.file('a.txt', 'first\nsecond\n\nfourth\n');
    expect(await read({ path: 'a.txt' })).toEqual({ isError: false, content: numbered(1, ['first', 'second', '', 'fourth']) });
  });

  it('shows a last line without a trailing newline', async () => {
    ws.file('a.txt', 'one\ntwo');
    expect((await read({ path: 'a.txt' })).content).toBe(numbered(1, ['one', 'two']));
  });

  it('reads a window and says how many lines there are and where to read on', async () => {
    ws.file('a.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const result = await read({ path: 'a.txt', offset: 10, limit: 5 });
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      `${numbered(10, ['line 10', 'line 11', 'line 12', 'line 13', 'line 14'])}\n(Showing lines 10-14 of 50. To read on, call read_file with offset 15.)`,
    );
  });

  it('has no note when the window reaches the end', async () => {
    ws.file('a.txt', 'a\nb\nc\n');
    expect((await read({ path: 'a.txt', offset: 2 })).content).toBe(numbered(2, ['b', 'c']));
  });

  it('reads 2000 lines by default', async () => {
    ws.file('a.txt', Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join('\n'));
    const result = await read({ path: 'a.txt' });
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines[1999]).toBe(`  2000\t2000`);
    expect(lines[2000]).toBe('(Showing lines 1-2000 of 2500. To read on, call read_file with offset 2001.)');
  });

  it('cuts long lines with a marker', async () => {
    ws.file('a.txt', `${'x'.repeat(5000)}\nshort\n`);
    const lines = (await read({ path: 'a.txt' })).content.split('\n');
    expect(lines[0]).toBe(`     1\t${'x'.repeat(2000)} … [line cut at 2000 characters]`);
    expect(lines[1]).toBe('     2\tshort');
  });

  it('caps the output at about 100 KB and says where to read on', async () => {
    const line = 'y'.repeat(1000);
    ws.file('a.txt', Array.from({ length: 300 }, () => line).join('\n'));
    const result = await read({ path: 'a.txt' });
    expect(result.content.length).toBeLessThan(105 * 1024);
    const note = result.content.split('\n').at(-1) ?? '';
    const shown = Number(/Showing lines 1-(\d+) of 300; the output was cut/.exec(note)?.[1]);
    expect(shown).toBeGreaterThan(90);
    expect(note).toContain(`offset ${shown + 1}.`);
  });

  it('strips CR from CRLF lines', async () => {
    ws.file('a.txt', 'one\r\ntwo\r\n');
    expect((await read({ path: 'a.txt' })).content).toBe(numbered(1, ['one', 'two']));
  });

  it('says an empty file is empty', async () => {
    ws.file('empty.txt', '');
    expect(await read({ path: 'empty.txt' })).toEqual({ isError: false, content: '(The file "empty.txt" is empty.)' });
  });

  it('refuses an offset past the end with the line count', async () => {
    ws.file('a.txt', 'a\nb\n');
    const result = await read({ path: 'a.txt', offset: 9 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/has 2 lines; offset 9 is past the end/);
  });

  it('refuses a folder and points to list_files', async () => {
    mkdirSync(path.join(ws.root, 'src'));
    const result = await read({ path: 'src' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"src" is a folder.*list_files/);
  });

  it('says a missing file does not exist', async () => {
    const result = await read({ path: 'nope.txt' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"nope.txt" does not exist/);
  });
});

describe('read_file binary detection', () => {
  it('refuses a file with NUL bytes', async () => {
    ws.file('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const result = await read({ path: 'image.png' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"image.png" looks like a binary file \(it contains NUL bytes/);
  });

  it('refuses bytes that are mostly control characters even without NULs', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = ((i * 7) % 31) + 1;
    ws.file('blob.bin', bytes);
    const result = await read({ path: 'blob.bin' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/binary file \(most of it is not text/);
  });
});

describe('read_file encodings', () => {
  it('reads UTF-8 with a BOM without showing the BOM', async () => {
    ws.file('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nwörld\n')]));
    expect(await read({ path: 'bom.txt' })).toEqual({ isError: false, content: numbered(1, ['héllo', 'wörld']) });
  });

  it('reads UTF-16LE with a BOM and names the encoding', async () => {
    ws.file('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße\r\n你好\r\n', 'utf16le')]));
    expect((await read({ path: 'u16.txt' })).content).toBe(`[encoding: UTF-16LE with BOM]\n${numbered(1, ['Grüße', '你好'])}`);
  });

  it('reads UTF-16BE with a BOM', async () => {
    ws.file('u16be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('one\ntwo\nthree', 'utf16be')]));
    const result = await read({ path: 'u16be.txt', offset: 2, limit: 1 });
    expect(result.content).toBe(`[encoding: UTF-16BE with BOM]\n${numbered(2, ['two'])}\n(Showing lines 2-2 of 3. To read on, call read_file with offset 3.)`);
  });

  it('reads a GBK file as Chinese', async () => {
    const text = '你好，世界！这是一个测试文件。\n第二行：中文内容与标点符号。\n';
    ws.file('gbk.txt', iconv.encode(text, 'gbk'));
    expect(await read({ path: 'gbk.txt' })).toEqual({
      isError: false,
      content: `[encoding: GB18030]\n${numbered(1, ['你好，世界！这是一个测试文件。', '第二行：中文内容与标点符号。'])}`,
    });
  });

  it('reads a Shift_JIS file as Japanese', async () => {
    ws.file('sjis.txt', iconv.encode('こんにちは世界。これはテストです。\n日本語のテキストを表示します。\n', 'shift_jis'));
    expect((await read({ path: 'sjis.txt' })).content).toBe(
      `[encoding: Shift_JIS]\n${numbered(1, ['こんにちは世界。これはテストです。', '日本語のテキストを表示します。'])}`,
    );
  });

  it('reads a short GBK file (11 bytes) as Chinese, not Greek, and says which encoding it assumed', async () => {
    const bytes = iconv.encode('你好，世界\n', 'gbk');
    expect(bytes).toHaveLength(11);
    ws.file('short.txt', bytes);
    expect(await read({ path: 'short.txt' })).toEqual({ isError: false, content: `[encoding: GB18030]\n${numbered(1, ['你好，世界'])}` });
  });

  it('reads short Big5 and Shift_JIS files in their own encodings, and 2-character GBK', async () => {
    for (const [name, text, label] of [
      ['big5', '你好，世界', 'Big5'],
      ['shift_jis', 'こんにちは', 'Shift_JIS'],
      ['shift_jis', '日本語', 'Shift_JIS'],
      ['gbk', '中文', 'GB18030'],
    ] as const) {
      ws.file('short.txt', iconv.encode(`${text}\n`, name));
      expect((await read({ path: 'short.txt' })).content, `${name} ${text}`).toBe(`[encoding: ${label}]\n${numbered(1, [text])}`);
    }
  });

  it('keeps short Latin and Cyrillic files in single-byte encodings', async () => {
    for (const [name, text] of [
      ['windows-1252', 'naïve'],
      ['windows-1252', 'Café déjà vu'],
      ['windows-1251', 'Привет мир'],
    ] as const) {
      ws.file('short.txt', iconv.encode(`${text}\n`, name));
      expect((await read({ path: 'short.txt' })).content, `${name} ${text}`).toContain(`\t${text}`);
    }
  });

  it('reads in the encoding asked for, and refuses a name it does not know', async () => {
    // Korean is ambiguous with Chinese in a few bytes: the model can say what it is.
    ws.file('ko.txt', iconv.encode('안녕하세요\n', 'euc-kr'));
    expect((await read({ path: 'ko.txt', encoding: 'EUC-KR' })).content).toBe(`[encoding: EUC-KR, as asked]\n${numbered(1, ['안녕하세요'])}`);
    ws.file('u16.txt', Buffer.from('no BOM\nsecond\n', 'utf16le'));
    expect((await read({ path: 'u16.txt', encoding: 'utf-16le', offset: 2 })).content).toBe(`[encoding: utf-16le, as asked]\n${numbered(2, ['second'])}`);
    const refused = await read({ path: 'ko.txt', encoding: 'klingon-8' });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('"klingon-8" is not an encoding Keel can read');
    expect(refused.content).toContain('GB18030');
  });

  it('reads a Windows-1252 file', async () => {
    ws.file('latin.txt', iconv.encode('Café déjà vu — “quotes”, naïve façade, résumé, 5 €.\n', 'windows-1252'));
    expect((await read({ path: 'latin.txt' })).content).toBe(
      `[encoding: Windows-1252]\n${numbered(1, ['Café déjà vu — “quotes”, naïve façade, résumé, 5 €.'])}`,
    );
  });

  it('does not mistake a UTF-8 character cut at the sample boundary for another encoding', async () => {
    // 64 KB sample ends inside a 3-byte character.
    const text = `${'a'.repeat(64 * 1024 - 1)}€\nnext\n`;
    ws.file('edge.txt', text);
    const result = await read({ path: 'edge.txt', offset: 2 });
    expect(result.content).toBe(numbered(2, ['next']));
  });

  it('refuses a UTF-16 file too large to decode whole, pointing to search_text', async () => {
    const fd = openSync(path.join(ws.root, 'big16.txt'), 'w');
    try {
      writeSync(fd, Buffer.from([0xff, 0xfe]));
      const chunk = Buffer.from('0123456789abcdef\n'.repeat(32 * 1024), 'utf16le');
      for (let written = 0; written <= 32 * 1024 * 1024; written += chunk.length) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    const result = await read({ path: 'big16.txt' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/"big16.txt" is UTF-16LE with BOM and 3\d MB; .*refused above 32 MB\. Use search_text/);
  });
});

describe('read_file cancel', () => {
  it('stops when the task is cancelled', async () => {
    ws.file('a.txt', 'a\n');
    const controller = new AbortController();
    controller.abort(new Error('person pressed stop'));
    const result = await readFileTool.run({ path: 'a.txt' }, { ...ws.context, signal: controller.signal });
    expect(result).toEqual({ isError: true, content: 'Stopped: the task was cancelled while reading "a.txt".' });
  });
});
