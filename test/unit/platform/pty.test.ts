import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ptyPlatformOptions } from '../../../main/platform/pty';
import { endPtyProcesses, type KillablePty } from '../../../main/platform/ptyKill';
import { makeHelpersExecutable, nodePtyDir, spawnHelperCandidates } from '../../../main/platform/spawnHelper';

/**
 * node-pty's Windows code cannot run here, so the kill sequence is checked against a fake pty
 * that records what is done to it (the one place these tests use a stand-in for node-pty).
 */
class FakePty implements KillablePty {
  readonly calls: string[] = [];
  constructor(readonly pid: number) {}
  kill(): void {
    this.calls.push('pty.kill');
  }
}

function steps(pty: FakePty, platform: NodeJS.Platform, exited: boolean) {
  return endPtyProcesses(pty, {
    platform,
    exitSeen: () => exited,
    killTree: async (pid) => {
      pty.calls.push(`killTree ${pid}`);
    },
  });
}

describe('ending a pty’s processes (15.6, 15.7)', () => {
  it('Windows, shell running: taskkill the tree first, then close the pseudo-console', async () => {
    const pty = new FakePty(4242);
    expect(await steps(pty, 'win32', false)).toBe('pty closed');
    expect(pty.calls).toEqual(['killTree 4242', 'pty.kill']);
  });

  it('Windows, shell already exited: no taskkill (the pid may be another program’s), only the pseudo-console is closed', async () => {
    const pty = new FakePty(4242);
    expect(await steps(pty, 'win32', true)).toBe('pty closed');
    expect(pty.calls).toEqual(['pty.kill']);
  });

  it('POSIX: the tree is signalled (killProcessTree itself stops following a reaped root by pid); the pty is left to exit', async () => {
    for (const exited of [false, true]) {
      const pty = new FakePty(77);
      expect(await steps(pty, 'darwin', exited)).toBe('tree signalled');
      expect(pty.calls).toEqual(['killTree 77']);
    }
  });

  it('a failing taskkill or an already closed pty does not throw', async () => {
    const pty: KillablePty = {
      pid: 1,
      kill: () => {
        throw new Error('already closed');
      },
    };
    await expect(
      endPtyProcesses(pty, { platform: 'win32', exitSeen: () => false, killTree: () => Promise.reject(new Error('taskkill failed')) }),
    ).resolves.toBe('pty closed');
  });
});

describe('ConPTY DLL mode (15.6)', () => {
  it('is asked for on Windows only', () => {
    expect(ptyPlatformOptions('win32')).toEqual({ useConpty: true, useConptyDll: true });
    expect(ptyPlatformOptions('darwin')).toEqual({});
    expect(ptyPlatformOptions('linux')).toEqual({});
  });

  it('has its DLL shipped by the installed node-pty for both Windows arches', () => {
    const dir = nodePtyDir();
    expect(dir).toBeDefined();
    for (const arch of ['x64', 'arm64']) {
      expect(existsSync(path.join(dir ?? '', 'prebuilds', `win32-${arch}`, 'conpty', 'conpty.dll')), arch).toBe(true);
      expect(existsSync(path.join(dir ?? '', 'prebuilds', `win32-${arch}`, 'conpty', 'OpenConsole.exe')), arch).toBe(true);
    }
  });
});

describe('spawn-helper without its execute bit (15.12)', () => {
  let temp: string | undefined;
  afterEach(() => {
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('is made executable on a copy of node-pty as installed, and an executable one is left alone', () => {
    const dir = nodePtyDir() ?? '';
    temp = mkdtempSync(path.join(tmpdir(), 'keel-pty-copy-'));
    const copies: string[] = [];
    for (const arch of ['arm64', 'x64']) {
      const shipped = path.join(dir, 'prebuilds', `darwin-${arch}`, 'spawn-helper');
      const copy = spawnHelperCandidates(temp, 'darwin', arch).at(-1) ?? '';
      mkdirSync(path.dirname(copy), { recursive: true });
      copyFileSync(shipped, copy);
      chmodSync(copy, 0o644); // as node-pty 1.1.0's tarball has it
      copies.push(copy);
    }
    const results = makeHelpersExecutable([...copies, path.join(temp, 'build', 'Release', 'spawn-helper')]);
    expect(results.map((r) => r.outcome)).toEqual(['fixed', 'fixed']);
    for (const copy of copies) expect(statSync(copy).mode & 0o777).toBe(0o755);
    expect(makeHelpersExecutable(copies).map((r) => r.outcome)).toEqual(['already executable', 'already executable']);
  });

  it('looks where node-pty looks: build/Release, build/Debug, then the prebuild for the platform and arch', () => {
    expect(spawnHelperCandidates('/p', 'darwin', 'arm64')).toEqual([
      '/p/build/Release/spawn-helper',
      '/p/build/Debug/spawn-helper',
      '/p/prebuilds/darwin-arm64/spawn-helper',
    ]);
  });
});
