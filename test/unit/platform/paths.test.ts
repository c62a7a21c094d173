import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalPath, isInside, relativeInside, samePath } from '../../../main/platform/paths';
import { resolveWorkspace, sessionsFolder } from '../../../main/session/workspaceSession';

describe('isInside, by the platform’s rules', () => {
  it('ignores letter case and slash direction on Windows', () => {
    expect(isInside('C:\\Users\\Ann\\Proj', 'c:\\users\\ann\\proj\\src\\a.ts', 'win32')).toBe(true);
    expect(isInside('c:\\proj', 'C:/PROJ/x', 'win32')).toBe(true);
    expect(relativeInside('C:\\Proj', 'c:\\proj\\Src\\A.ts', 'win32')).toBe('Src/A.ts');
    expect(isInside('C:\\proj', 'C:\\project\\x', 'win32')).toBe(false);
    expect(isInside('C:\\proj', 'D:\\proj\\x', 'win32')).toBe(false);
    expect(isInside('C:\\proj', 'C:\\proj\\..\\other', 'win32')).toBe(false);
    expect(isInside('C:\\', 'C:\\proj', 'win32')).toBe(true);
  });

  it('ignores letter case on macOS, not on Linux', () => {
    expect(isInside('/Users/ann/Proj', '/Users/ann/proj/src', 'darwin')).toBe(true);
    expect(isInside('/home/ann/Proj', '/home/ann/proj/src', 'linux')).toBe(false);
    expect(isInside('/home/ann/proj', '/home/ann/proj/..foo', 'linux')).toBe(true);
    expect(isInside('/home/ann/proj', '/home/ann/proj-2/x', 'linux')).toBe(false);
    expect(isInside('/', '/etc', 'linux')).toBe(true);
  });

  it('calls two spellings of one Windows path the same', () => {
    expect(samePath('C:\\Proj\\a.txt', 'c:/proj/A.TXT', 'win32')).toBe(true);
    expect(samePath('/p/a.txt', '/p/A.txt', 'linux')).toBe(false);
  });
});

describe('the canonical workspace path', () => {
  let base: string | undefined;
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('is the native realpath: a folder reached through a link is one workspace with one sessions folder', () => {
    base = realpathSync.native(mkdtempSync(path.join(tmpdir(), 'keel-canon-')));
    const real = path.join(base, 'proj');
    mkdirSync(real);
    symlinkSync(real, path.join(base, 'link'));
    expect(canonicalPath(path.join(base, 'link'))).toBe(real);
    expect(resolveWorkspace(path.join(base, 'link', '.'))).toBe(real);
    expect(sessionsFolder('/data', resolveWorkspace(path.join(base, 'link')))).toBe(sessionsFolder('/data', resolveWorkspace(real)));
  });

  it('uses the realpath it is given (the native one by default)', () => {
    expect(canonicalPath('c:\\PROGRA~1', () => 'C:\\Program Files')).toBe('C:\\Program Files');
  });
});
