import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathProblem } from '../../../main/platform/pathRules';
import { resolveInWorkspace } from '../../../main/tools/files/confine';
import { listFilesTool } from '../../../main/tools/files/listFiles';
import { readFileTool } from '../../../main/tools/files/readFile';
import { writeFileTool } from '../../../main/tools/files/writeFile';
import { makeWorkspace, type TempWorkspace } from '../tools/files/workspace';

describe('UNC and device paths', () => {
  const paths = ['\\\\host\\share\\x', '//host/share/x', '\\\\?\\C:\\Windows\\win.ini', '\\\\.\\pipe\\x', '\\/host/share', '\\??\\C:\\x'];
  it.each(['win32', 'linux', 'darwin'] as const)('are refused on %s, for reading too', (platform) => {
    for (const p of paths) expect(pathProblem(p, { platform }), p).toMatch(/network \(UNC\) or device path/);
  });

  it('are refused before any file-system call (even the workspace is not looked at)', async () => {
    const result = await resolveInWorkspace('/no/such/workspace', '\\\\attacker.example\\share\\x');
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/UNC/) as unknown });
  });

  it('ordinary paths pass', () => {
    for (const p of ['src/a.ts', 'C:\\proj\\a.ts', 'a b/c.d.ts', './x', '..\\x'])
      expect(pathProblem(p, { platform: 'win32', writing: true }), p).toBeUndefined();
  });
});

describe('Windows names', () => {
  const win = { platform: 'win32' as const, writing: true };
  it('refuses device names, with or without an extension, in any segment', () => {
    for (const p of ['nul', 'con.txt', 'src/COM1', 'Lpt9.log', 'aux', 'prn.md', 'a\\CONOUT$', 'com¹']) {
      expect(pathProblem(p, win), p).toMatch(/reserved by Windows/);
    }
    expect(pathProblem('console.txt', win)).toBeUndefined();
    expect(pathProblem('com10', win)).toBeUndefined();
  });

  it('refuses trailing dots and spaces, and ":" after the drive', () => {
    expect(pathProblem('notes.', win)).toMatch(/ends with a dot or a space/);
    expect(pathProblem('dir /a.txt', win)).toMatch(/ends with a dot or a space/);
    expect(pathProblem('a.txt:secret', win)).toMatch(/hidden data stream/);
    expect(pathProblem('C:\\p\\a.txt:Zone.Identifier', win)).toMatch(/hidden data stream/);
    expect(pathProblem('a<b', win)).toMatch(/does not allow/);
  });

  it('are allowed on Linux and macOS, where they are ordinary names', () => {
    for (const p of ['nul', 'con.txt', 'notes.', 'a:b']) expect(pathProblem(p, { platform: 'linux', writing: true }), p).toBeUndefined();
  });
});

describe('control characters (issue 9.7)', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('write_file refuses a name with a newline, tab, ESC or DEL, and writes nothing', async () => {
    for (const name of ['new\nline.txt', 'tab\there', 'esc\u001b[31m', 'del\u007f']) {
      const result = await writeFileTool.run({ path: name, content: 'x' }, ws.context);
      expect(result.isError, name).toBe(true);
      expect(result.content).toMatch(/control character \(U\+00(0A|09|1B|7F)/);
    }
    const listing = await listFilesTool.run({}, ws.context);
    expect(listing.content).toMatch(/^No files match/);
  });

  it('reading such a name on Linux is still possible (an existing file may have one)', async () => {
    ws.file('odd\nname.txt', 'hello\n');
    const result = await readFileTool.run({ path: 'odd\nname.txt' }, ws.context);
    expect(result.isError).toBe(false);
    expect(result.content).toContain('hello');
  });

  it('NUL is refused everywhere', async () => {
    const result = await resolveInWorkspace(ws.root, path.join('a\0b'));
    expect(result.ok).toBe(false);
  });
});

describe('write_file with Windows rules (15.9, 15.14)', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('refuses con.txt, a trailing dot and a stream name, and creates nothing', async () => {
    const context = { ...ws.context, platform: 'win32' as const };
    for (const name of ['con.txt', 'src/nul', 'notes.', 'a.txt:hidden']) {
      const result = await writeFileTool.run({ path: name, content: 'x' }, context);
      expect(result.isError, name).toBe(true);
    }
    expect((await listFilesTool.run({}, ws.context)).content).toMatch(/^No files match/);
  });

  it('writes a new .ps1 with a UTF-8 BOM on Windows, and without one elsewhere', async () => {
    const windows = await writeFileTool.run({ path: 'setup.ps1', content: 'Write-Output "你好"\n' }, { ...ws.context, platform: 'win32' });
    expect(windows.content).toMatch(/UTF-8 with BOM, as Windows PowerShell 5\.1 needs/);
    expect([...readFileSync(path.join(ws.root, 'setup.ps1')).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    await writeFileTool.run({ path: 'other.ps1', content: 'Write-Output "x"\n' }, { ...ws.context, platform: 'darwin' });
    expect(readFileSync(path.join(ws.root, 'other.ps1'))[0]).toBe(0x57);
  });
});
