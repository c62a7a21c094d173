import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completeFolderPath, completionTarget } from '../../../main/session/folderCompletion';

describe('folder completion on Windows paths (15.14)', () => {
  const win = { path: path.win32, home: 'C:\\Users\\Ann' };

  it('completes C:\\… with either slash, and a bare drive', () => {
    expect(completionTarget('C:\\Users\\An', win)).toEqual({ folder: 'C:\\Users', prefix: 'An' });
    expect(completionTarget('c:/projects/ke', win)).toEqual({ folder: 'c:/projects', prefix: 'ke' });
    expect(completionTarget('D:\\', win)).toEqual({ folder: 'D:\\', prefix: '' });
    expect(completionTarget('D:', win)).toEqual({ folder: 'D:\\', prefix: '' });
    expect(completionTarget('~\\Doc', win)).toEqual({ folder: 'C:\\Users\\Ann', prefix: 'Doc' });
  });

  it('never lists a UNC path (that would connect to the host) nor a relative one', () => {
    expect(completionTarget('\\\\host\\share\\', win)).toBeUndefined();
    expect(completionTarget('//host/share/', win)).toBeUndefined();
    expect(completionTarget('\\Users', win)).toBeUndefined();
    expect(completionTarget('projects', win)).toBeUndefined();
  });

  it('on POSIX, a leading / or ~ as before; C:\\ is not a path there', () => {
    const posix = { path: path.posix, home: '/home/ann' };
    expect(completionTarget('/usr/lo', posix)).toEqual({ folder: '/usr', prefix: 'lo' });
    expect(completionTarget('~/pro', posix)).toEqual({ folder: '/home/ann', prefix: 'pro' });
    expect(completionTarget('C:\\Users', posix)).toBeUndefined();
  });
});

describe('folder completion on this machine', () => {
  let base: string | undefined;
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('lists matching folders, not files, with a trailing separator', async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'keel-complete-')));
    mkdirSync(path.join(base, 'projects'));
    mkdirSync(path.join(base, 'proto'));
    writeFileSync(path.join(base, 'profile.txt'), '');
    expect(await completeFolderPath(path.join(base, 'pro'))).toEqual([path.join(base, 'projects') + '/', path.join(base, 'proto') + '/']);
  });
});
