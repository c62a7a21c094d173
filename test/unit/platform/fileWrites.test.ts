import { linkSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile, FileInUseError } from '../../../main/tools/files/atomicWrite';
import { describeFsError } from '../../../main/tools/files/errors';
import { editFileTool } from '../../../main/tools/files/editFile';
import { listFilesTool } from '../../../main/tools/files/listFiles';
import { writeFileTool } from '../../../main/tools/files/writeFile';
import { makeWorkspace, type TempWorkspace } from '../tools/files/workspace';

let ws: TempWorkspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

function busy(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: operation not permitted, rename`), { code });
}

describe('atomic rename on Windows, when another program holds the file (15.5)', () => {
  it('retries EPERM/EBUSY/EACCES with backoff and succeeds once the file is free', async () => {
    const target = ws.file('a.txt', 'old\n');
    const codes = ['EPERM', 'EBUSY', 'EACCES'];
    let calls = 0;
    const flaky = async (from: string, to: string) => {
      const code = codes[calls++];
      if (code) throw busy(code);
      await rename(from, to);
    };
    await atomicWriteFile(target, Buffer.from('new\n'), { platform: 'win32', rename: flaky, retryDelaysMs: [1, 1, 1, 1] });
    expect(calls).toBe(4);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(ws.root)).toEqual(['a.txt']);
  });

  it('gives up with "in use by another program", leaving the old file and no temp file', async () => {
    const target = ws.file('a.txt', 'old\n');
    let calls = 0;
    const held = async () => {
      calls++;
      throw busy('EPERM');
    };
    const error = await atomicWriteFile(target, Buffer.from('new\n'), { platform: 'win32', rename: held, retryDelaysMs: [1, 1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileInUseError);
    expect(calls).toBe(3);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(ws.root)).toEqual(['a.txt']);
    const message = describeFsError(error, 'a.txt', 'writing');
    expect(message).toMatch(/in use by another program/);
    expect(message).not.toMatch(/permissions/);
  });

  it('a refusal outside the rename is explained as Windows’ usual cause, not permissions', () => {
    const message = describeFsError(busy('EPERM'), 'a.txt', 'writing', undefined, 'win32');
    expect(message).toMatch(/another program may have it open/);
    expect(message).not.toMatch(/permissions/);
  });

  it('does not retry on Linux and macOS, where EPERM means permissions', async () => {
    const target = ws.file('a.txt', 'old\n');
    let calls = 0;
    const denied = async () => {
      calls++;
      throw busy('EPERM');
    };
    const error = await atomicWriteFile(target, Buffer.from('new\n'), { platform: 'darwin', rename: denied }).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(describeFsError(error, 'a.txt', 'writing')).toMatch(/Permission denied/);
  });
});

describe('hard-linked files (issue 9.9): the write stays a rename, and says so', () => {
  it('write_file replaces the workspace name only; the other link keeps the old content and the result says so', async () => {
    const target = ws.file('linked.txt', 'old\n');
    const other = path.join(ws.outside, 'other-name.txt');
    linkSync(target, other);
    const result = await writeFileTool.run({ path: 'linked.txt', content: 'new\n' }, ws.context);
    expect(result.isError).toBe(false);
    expect(result.content).toMatch(/1 other hard link, which keeps the old content/);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readFileSync(other, 'utf8')).toBe('old\n');
  });

  it('edit_file says so too; a file without other links gets no note', async () => {
    const target = ws.file('linked.txt', 'alpha\n');
    linkSync(target, path.join(ws.outside, 'l1'));
    linkSync(target, path.join(ws.outside, 'l2'));
    const edited = await editFileTool.run({ path: 'linked.txt', old_text: 'alpha', new_text: 'beta' }, ws.context);
    expect(edited.content).toMatch(/2 other hard links, which keep the old content/);
    ws.file('plain.txt', 'x\n');
    const plain = await writeFileTool.run({ path: 'plain.txt', content: 'y\n' }, ws.context);
    expect(plain.content).not.toMatch(/hard link/);
  });
});

describe('list_files names (issue 9.7, 15.14)', () => {
  it('shows a name with a newline JSON-quoted on one line, and hides .DS_Store', async () => {
    ws.file('odd\nname.txt', 'x');
    ws.file('plain.txt', 'x');
    ws.file('.DS_Store', 'junk');
    ws.file('src/.DS_Store', 'junk');
    writeFileSync(path.join(ws.root, ' edge.txt'), 'x');
    const result = await listFilesTool.run({}, ws.context);
    const lines = result.content.split('\n');
    expect(lines).toContain('"odd\\nname.txt"');
    expect(lines).toContain('" edge.txt"');
    expect(lines).toContain('plain.txt');
    expect(result.content).not.toContain('.DS_Store');
    expect(result.content).toMatch(/shown JSON-quoted/);
    expect(lines.filter((line) => line.includes('name.txt'))).toHaveLength(1);
  });
});
