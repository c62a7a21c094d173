import { copyFileSync, existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { afterPack, describeBinary, PackagingError, prebuildsFor } from '../../../build/hooks/afterPack.mjs';
import type { FakeApp } from './fakeApp';
import { elf, macho, makeFakeApp, pe } from './fakeApp';

// electron-builder's Arch enum values.
const Arch = { ia32: 0, x64: 1, armv7l: 2, arm64: 3, universal: 4 } as const;

const made: FakeApp[] = [];
function fake(...args: Parameters<typeof makeFakeApp>): FakeApp {
  const app = makeFakeApp(...args);
  made.push(app);
  return app;
}
afterEach(() => {
  for (const app of made.splice(0)) rmSync(app.appOutDir, { recursive: true, force: true });
});

const mode = (path: string): number => statSync(path).mode & 0o777;
const context = (app: FakeApp, electronPlatformName: string, arch: number) => ({
  appOutDir: app.appOutDir,
  electronPlatformName,
  arch,
  packager: { appInfo: { productFilename: 'Keel' } },
});
const quiet = <T>(run: () => Promise<T>): Promise<T> => {
  const log = console.log;
  console.log = () => {};
  return run().finally(() => {
    console.log = log;
  });
};

describe('the afterPack hook on a fake macOS app', () => {
  it('makes every spawn-helper 0o755 and removes the stale local build and the Windows prebuilds', async () => {
    // Packed on a Linux machine: build/Release holds that machine's ELF compile, which node-pty
    // would load before the macOS prebuild.
    const app = fake({ layout: 'darwin', localBuild: elf('x64') });
    const helpers = ['darwin-arm64', 'darwin-x64'].map((name) => join(app.ptyDir, 'prebuilds', name, 'spawn-helper'));
    for (const helper of helpers) expect(mode(helper)).toBe(0o644);
    expect(existsSync(join(app.ptyDir, 'build', 'Release', 'pty.node'))).toBe(true);

    const result = await quiet(() => afterPack(context(app, 'darwin', Arch.arm64)));

    for (const helper of helpers) expect(mode(helper)).toBe(0o755);
    expect(existsSync(join(app.ptyDir, 'build'))).toBe(false);
    expect(readdirSync(join(app.ptyDir, 'prebuilds')).sort()).toEqual(['darwin-arm64', 'darwin-x64']);
    for (const gone of ['src', 'deps', 'third_party', 'binding.gyp']) expect(existsSync(join(app.ptyDir, gone))).toBe(false);
    expect(existsSync(join(app.ptyDir, 'lib', 'index.js'))).toBe(true);
    expect(existsSync(join(app.ptyDir, 'package.json'))).toBe(true);
    expect(result.helpers.sort()).toEqual(['prebuilds/darwin-arm64/spawn-helper', 'prebuilds/darwin-x64/spawn-helper']);
    expect(result.removed).toContain('build');
    expect(result.removed).toContain('prebuilds/win32-x64');
  });

  it("does not change the project's node_modules through a hard-linked spawn-helper", async () => {
    const app = fake({ layout: 'darwin', localBuild: null });
    const helper = join(app.ptyDir, 'prebuilds', 'darwin-arm64', 'spawn-helper');
    const project = mkdtempSync(join(tmpdir(), 'keel-node-modules-'));
    const original = join(project, 'spawn-helper');
    try {
      copyFileSync(helper, original);
      unlinkSync(helper);
      linkSync(original, helper); // what electron-builder does with USE_HARD_LINKS=true
      await quiet(() => afterPack(context(app, 'darwin', Arch.arm64)));
      expect(mode(helper)).toBe(0o755);
      expect(mode(original)).toBe(0o644);
      expect(readFileSync(helper).equals(readFileSync(original))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('finds the app bundle without the packager, and handles mas and universal', async () => {
    const app = fake({ layout: 'darwin', localBuild: macho('x64') });
    await quiet(() => afterPack({ appOutDir: app.appOutDir, electronPlatformName: 'mas', arch: Arch.universal }));
    expect(existsSync(join(app.ptyDir, 'build'))).toBe(false);
    expect(mode(join(app.ptyDir, 'prebuilds', 'darwin-x64', 'spawn-helper'))).toBe(0o755);
  });

  it('fails when a darwin prebuild is missing', async () => {
    const app = fake({ layout: 'darwin', localBuild: null, withoutPrebuilds: ['darwin-arm64'] });
    await expect(quiet(() => afterPack(context(app, 'darwin', Arch.arm64)))).rejects.toThrow(/prebuilds for darwin-arm64 are missing/);
  });
});

describe('the afterPack hook on a fake Windows app', () => {
  it('keeps only the target arch prebuild, without debug symbols or a local build', async () => {
    const app = fake({ layout: 'win32', localBuild: elf('x64') });
    const result = await quiet(() => afterPack(context(app, 'win32', Arch.x64)));
    expect(existsSync(join(app.ptyDir, 'build'))).toBe(false);
    expect(readdirSync(join(app.ptyDir, 'prebuilds'))).toEqual(['win32-x64']);
    const kept = readdirSync(join(app.ptyDir, 'prebuilds', 'win32-x64')).sort();
    expect(kept).toEqual(['conpty', 'conpty.node', 'conpty_console_list.node', 'pty.node', 'winpty-agent.exe', 'winpty.dll']);
    expect(readdirSync(join(app.ptyDir, 'prebuilds', 'win32-x64', 'conpty')).sort()).toEqual(['OpenConsole.exe', 'conpty.dll']);
    expect(result.nativeDirs).toEqual(['prebuilds/win32-x64']);
    expect(result.helpers).toEqual([]);
  });

  it('keeps the arm64 prebuild for an arm64 build', async () => {
    const app = fake({ layout: 'win32', localBuild: null });
    await quiet(() => afterPack(context(app, 'win32', Arch.arm64)));
    expect(readdirSync(join(app.ptyDir, 'prebuilds'))).toEqual(['win32-arm64']);
  });
});

describe('the afterPack hook on a fake Linux app', () => {
  it('keeps the local build when it is for the target, and removes every prebuild and build leftover', async () => {
    const app = fake({ layout: 'linux', localBuild: elf('x64') });
    const result = await quiet(() => afterPack(context(app, 'linux', Arch.x64)));
    expect(readdirSync(join(app.ptyDir, 'build'))).toEqual(['Release']);
    expect(readdirSync(join(app.ptyDir, 'build', 'Release'))).toEqual(['pty.node']);
    expect(existsSync(join(app.ptyDir, 'prebuilds'))).toBe(false);
    expect(result.nativeDirs).toEqual(['build/Release']);
    expect(result.removed).toEqual(expect.arrayContaining(['build/Makefile', 'build/config.gypi', 'build/Debug', 'prebuilds']));
  });

  it('is idempotent', async () => {
    const app = fake({ layout: 'linux', localBuild: elf('arm64') });
    await quiet(() => afterPack(context(app, 'linux', Arch.arm64)));
    const again = await quiet(() => afterPack(context(app, 'linux', Arch.arm64)));
    expect(again.removed).toEqual([]);
    expect(existsSync(join(app.ptyDir, 'build', 'Release', 'pty.node'))).toBe(true);
  });

  it('refuses a local build for another arch', async () => {
    const app = fake({ layout: 'linux', localBuild: elf('arm64') });
    await expect(quiet(() => afterPack(context(app, 'linux', Arch.x64)))).rejects.toThrow(/local build .*pty\.node is elf for arm64, not linux-x64/);
  });

  it('refuses a local build for another platform', async () => {
    const app = fake({ layout: 'linux', localBuild: macho('x64') });
    await expect(quiet(() => afterPack(context(app, 'linux', Arch.x64)))).rejects.toThrow(/is mach-o for x64, not linux-x64/);
  });

  it('fails when there is neither a prebuild nor a local build', async () => {
    const app = fake({ layout: 'linux', localBuild: null });
    await expect(quiet(() => afterPack(context(app, 'linux', Arch.x64)))).rejects.toThrow(
      /no prebuild for linux-x64 and no local build at .*build\/Release\/pty\.node/,
    );
  });
});

describe('the afterPack hook without node-pty', () => {
  it.each([
    ['linux', 'linux'],
    ['darwin', 'darwin'],
    ['win32', 'win32'],
  ] as const)('fails on %s with a message that says what to fix', async (layout, platform) => {
    const app = fake({ layout, localBuild: null, withoutNodePty: true });
    const run = quiet(() => afterPack(context(app, platform, Arch.x64)));
    await expect(run).rejects.toBeInstanceOf(PackagingError);
    await expect(run).rejects.toThrow(/node-pty is missing from the unpacked app .*app\.asar\.unpacked.*asarUnpack must include node_modules\/node-pty\/\*\*/);
  });
});

describe("the afterPack hook and the sandbox's seccomp helper", () => {
  const seccompDir = (app: FakeApp) => join(app.resources, 'app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp');

  it("keeps only the Linux target's apply-seccomp, executable", async () => {
    const app = fake({ layout: 'linux', localBuild: elf('arm64') });
    const result = await quiet(() => afterPack(context(app, 'linux', Arch.arm64)));
    expect(readdirSync(seccompDir(app))).toEqual(['arm64']);
    expect(statSync(join(seccompDir(app), 'arm64', 'apply-seccomp')).mode & 0o777).toBe(0o755);
    expect(result.seccomp).toMatchObject({
      removed: ['x64'],
      binary: join('app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp', 'arm64', 'apply-seccomp'),
    });
  });

  it('removes it where nothing runs it (macOS, Windows)', async () => {
    const app = fake({ layout: 'win32', localBuild: null });
    const result = await quiet(() => afterPack(context(app, 'win32', Arch.x64)));
    expect(readdirSync(seccompDir(app))).toEqual([]);
    expect(result.seccomp.binary).toBeUndefined();
  });

  it('refuses a Linux app without it, saying what to unpack', async () => {
    const app = fake({ layout: 'linux', localBuild: elf('x64'), withoutSeccomp: true });
    await expect(quiet(() => afterPack(context(app, 'linux', Arch.x64)))).rejects.toThrow(
      /seccomp helper is missing .*asarUnpack must include node_modules\/@anthropic-ai\/sandbox-runtime\/vendor\/seccomp/,
    );
  });

  it("refuses another arch's binary in the target's place", async () => {
    const app = fake({ layout: 'linux', localBuild: elf('x64') });
    copyFileSync(join(seccompDir(app), 'arm64', 'apply-seccomp'), join(seccompDir(app), 'x64', 'apply-seccomp'));
    await expect(quiet(() => afterPack(context(app, 'linux', Arch.x64)))).rejects.toThrow(/apply-seccomp is elf for arm64, not linux-x64/);
  });
});

describe('the afterPack helpers', () => {
  it('tells native binaries apart by their headers', () => {
    expect(describeBinary(elf('x64'))).toEqual({ format: 'elf', platform: 'linux', arch: 'x64' });
    expect(describeBinary(elf('arm64'))).toEqual({ format: 'elf', platform: 'linux', arch: 'arm64' });
    expect(describeBinary(macho('arm64'))).toEqual({ format: 'mach-o', platform: 'darwin', arch: 'arm64' });
    expect(describeBinary(pe('x64'))).toEqual({ format: 'pe', platform: 'win32', arch: 'x64' });
    expect(describeBinary(pe('arm64'))).toEqual({ format: 'pe', platform: 'win32', arch: 'arm64' });
    expect(describeBinary(Buffer.from('#!/bin/sh\n'))).toMatchObject({ format: 'unknown' });
  });

  it('knows the real node-pty local build on this machine', () => {
    const local = join(process.cwd(), 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
    if (!existsSync(local)) return; // only Linux compiles node-pty locally
    expect(describeBinary(readFileSync(local))).toMatchObject({ platform: process.platform, arch: process.arch });
  });

  it('maps each target to the prebuilds it loads', () => {
    expect(prebuildsFor('darwin', 'arm64')).toEqual(['darwin-x64', 'darwin-arm64']);
    expect(prebuildsFor('win32', 'x64')).toEqual(['win32-x64']);
    expect(prebuildsFor('win32', 'ia32')).toEqual([]);
    expect(prebuildsFor('linux', 'x64')).toEqual([]);
  });
});
