import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seccompApplyPath } from '../../../main/sandbox/seccompPath';

// The real electron-builder packs the real project, offline: the Electron it would download is
// replaced by a stand-in (electronDist) that has Electron's layout and a fuse wire where Electron
// keeps it, so that everything electron-builder does to a real Electron is done here too: the
// asar with only the files it should hold, node-pty unpacked, the hooks, the fuses flipped, the
// macOS Info.plist with the asar's integrity hash. What this cannot show (the packaged app
// starting, the AppImage/deb/dmg/nsis installers) needs the real Electron: see README, "Packaging".

const root = fileURLToPath(new URL('../../..', import.meta.url));
const require = createRequire(import.meta.url);
const run = promisify(execFile);

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** An unflipped Electron fuse wire: version 1, 8 fuses, each at Electron's default. */
const DEFAULT_WIRE = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('10111001')]);

const PRODUCTION = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  LoadBrowserProcessSpecificV8Snapshot: false,
  GrantFileProtocolExtraPrivileges: false,
};

const work = mkdtempSync(join(tmpdir(), 'keel-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function put(path: string, content: string | Buffer, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

function plist(entries: Record<string, string>): string {
  const body = Object.entries(entries)
    .map(([key, value]) => `<key>${key}</key><string>${value}</string>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict>${body}</dict></plist>\n`;
}

/** Electron's Linux zip, unpacked: the `electron` executable (holding the fuse wire) and resources/. */
function fakeLinuxElectron(): string {
  const dist = join(work, 'electron-linux');
  put(join(dist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# stand-in for Electron\n'), DEFAULT_WIRE]), 0o755);
  put(join(dist, 'LICENSE'), 'stand-in');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  return dist;
}

/** Electron's macOS zip, unpacked: Electron.app with its helpers and the framework holding the fuse wire. */
function fakeMacElectron(): string {
  const dist = join(work, 'electron-darwin');
  const contents = join(dist, 'Electron.app', 'Contents');
  put(
    join(contents, 'Info.plist'),
    plist({
      CFBundleExecutable: 'Electron',
      CFBundleIconFile: 'electron.icns',
      CFBundleIdentifier: 'com.github.Electron',
      CFBundleName: 'Electron',
      CFBundleVersion: '45.5.0',
    }),
  );
  put(join(contents, 'MacOS', 'Electron'), 'stand-in', 0o755);
  put(join(contents, 'Resources', 'electron.icns'), 'stand-in');
  for (const suffix of ['', ' (Renderer)', ' (GPU)', ' (Plugin)']) {
    const helper = join(contents, 'Frameworks', `Electron Helper${suffix}.app`, 'Contents');
    put(
      join(helper, 'Info.plist'),
      plist({ CFBundleExecutable: `Electron Helper${suffix}`, CFBundleIdentifier: 'com.github.Electron.helper', CFBundleName: `Electron Helper${suffix}` }),
    );
    put(join(helper, 'MacOS', `Electron Helper${suffix}`), 'stand-in', 0o755);
  }
  put(join(contents, 'Frameworks', 'Electron Framework.framework', 'Electron Framework'), Buffer.concat([Buffer.from('stand-in '), DEFAULT_WIRE]));
  put(join(dist, 'LICENSE'), 'stand-in');
  return dist;
}

async function pack(platform: '--linux' | '--mac', arch: string, electronDist: string, output: string, env: Record<string, string>) {
  const cli = require.resolve('electron-builder/cli.js');
  const childEnv: Record<string, string> = {};
  // Without VITEST: under it electron-builder silences its log and hard-links files into the app
  // instead of copying them (which fails across filesystems, and is not what a real build does).
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'KEEL_TEST_BUILD' && !key.startsWith('VITEST')) childEnv[key] = value;
  }
  Object.assign(childEnv, { USE_HARD_LINKS: 'false' }, env);
  const args = [cli, platform, 'dir', `--${arch}`, `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: root, env: childEnv, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
    return stdout + stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`electron-builder ${args.slice(1).join(' ')} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

interface AsarEntry {
  files?: Record<string, AsarEntry>;
  unpacked?: boolean;
}

/** The asar's header: its JSON (what Electron's integrity hash covers) and its file list. */
function readAsar(path: string): { headerString: string; files: Map<string, AsarEntry> } {
  const bytes = readFileSync(path);
  // Chromium pickles: [4][header pickle size] then [payload size][string length][string].
  const headerLength = bytes.readUInt32LE(12);
  const headerString = bytes.toString('utf8', 16, 16 + headerLength);
  const files = new Map<string, AsarEntry>();
  const walk = (entry: AsarEntry, prefix: string): void => {
    for (const [name, child] of Object.entries(entry.files ?? {})) {
      const path = `${prefix}/${name}`;
      if (child.files) walk(child, path);
      else files.set(path, child);
    }
  };
  walk(JSON.parse(headerString) as AsarEntry, '');
  return { headerString, files };
}

async function fuses(binary: string): Promise<Record<string, boolean>> {
  const wire = await getCurrentFuseWire(binary);
  const result: Record<string, boolean> = {};
  for (const name of Object.keys(PRODUCTION)) {
    const state = wire[FuseV1Options[name as keyof typeof FuseV1Options]];
    result[name] = state === 49; // '1'
  }
  return result;
}

const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const canPack = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64');
if (!canPack) console.log(`Offline pack test skipped: it packs for Linux on a Linux x64/arm64 host, not ${process.platform}-${process.arch}`);

beforeAll(() => {
  if (canPack && !existsSync(join(root, 'out', 'main', 'index.js'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  }
}, 300_000);

describe.skipIf(!canPack)('electron-builder with a stand-in Electron', () => {
  // Both packs start together: each is one electron-builder process on one core, and the tests
  // only read what they made.
  let packs: { linux: Promise<string>; mac: Promise<string> };
  beforeAll(() => {
    packs = {
      linux: pack('--linux', arch, fakeLinuxElectron(), join(work, 'linux'), {}),
      mac: pack('--mac', 'arm64', fakeMacElectron(), join(work, 'mac'), { KEEL_TEST_BUILD: '1' }),
    };
    // A pack that fails is reported by the test that awaits it, not as an unhandled rejection first.
    for (const packed of Object.values(packs)) packed.catch(() => undefined);
  });

  it('packs a Linux production app: only the built files, node-pty unpacked for this arch, production fuses', async () => {
    const output = join(work, 'linux');
    const log = await packs.linux;
    expect(log).toMatch(/afterPack: node-pty for linux-/);

    const appDir = join(output, arch === 'x64' ? 'linux-unpacked' : 'linux-arm64-unpacked');
    const { files } = readAsar(join(appDir, 'resources', 'app.asar'));
    const paths = [...files.keys()];
    for (const path of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html']) expect(paths).toContain(path);
    const outside = paths.filter((path) => !path.startsWith('/out/') && !path.startsWith('/node_modules/') && path !== '/package.json');
    expect(outside).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/node_modules/') && path.includes('/electron-builder/'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('/node_modules/vitest/'))).toEqual([]);

    // node-pty lives outside the asar, and the asar says so.
    const ptyFiles = paths.filter((path) => path.startsWith('/node_modules/node-pty/'));
    expect(ptyFiles.length).toBeGreaterThan(0);
    for (const path of ptyFiles) expect(files.get(path)?.unpacked, path).toBe(true);
    const ptyDir = join(appDir, 'resources', 'app.asar.unpacked', 'node_modules', 'node-pty');
    expect(readdirSync(join(ptyDir, 'build'))).toEqual(['Release']);
    expect(readdirSync(join(ptyDir, 'build', 'Release'))).toEqual(['pty.node']);
    expect(existsSync(join(ptyDir, 'prebuilds'))).toBe(false);

    expect(existsSync(join(ptyDir, 'lib', 'index.js'))).toBe(true);

    // The sandbox's seccomp helper: unpacked for this arch only, executable, found where Keel
    // looks from inside the asar, and it does what it is for (no unix sockets).
    const runtime = join(appDir, 'resources', 'app.asar', 'node_modules', '@anthropic-ai', 'sandbox-runtime');
    expect(files.get(`/node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/${arch}/apply-seccomp`)?.unpacked).toBe(true);
    const seccomp = seccompApplyPath(join(runtime, 'dist', 'index.js'), arch);
    expect(seccomp).toBe(
      join(appDir, 'resources', 'app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp', arch, 'apply-seccomp'),
    );
    expect(readdirSync(dirname(dirname(seccomp!)))).toEqual([arch]);
    expect(statSync(seccomp!).mode & 0o777).toBe(0o755);
    expect((await run(seccomp!, ['/bin/echo', 'confined'])).stdout).toBe('confined\n');
    await expect(
      run(seccomp!, [process.execPath, '-e', "require('net').connect('/nonexistent.sock').on('error', (e) => { console.error(e.code); process.exit(3); })"]),
    ).rejects.toMatchObject({
      code: 3,
      stderr: expect.stringContaining('EPERM'),
    });

    expect(await fuses(join(appDir, 'keel'))).toEqual(PRODUCTION);
  }, 280_000);

  it('packs a macOS test build: spawn-helper executable, the Linux build of node-pty gone, asar integrity recorded, the inspect fuse on', async () => {
    const output = join(work, 'mac');
    const log = await packs.mac;
    expect(log).toMatch(/a TEST build/);

    const app = join(output, 'mac-arm64', 'Keel.app', 'Contents');
    const ptyDir = join(app, 'Resources', 'app.asar.unpacked', 'node_modules', 'node-pty');
    // This machine's node_modules holds a Linux compile in build/: it must not reach a Mac.
    expect(existsSync(join(ptyDir, 'build'))).toBe(false);
    expect(readdirSync(join(ptyDir, 'prebuilds')).sort()).toEqual(['darwin-arm64', 'darwin-x64']);
    for (const name of ['darwin-arm64', 'darwin-x64']) {
      expect(statSync(join(ptyDir, 'prebuilds', name, 'spawn-helper')).mode & 0o777).toBe(0o755);
      expect(existsSync(join(ptyDir, 'prebuilds', name, 'pty.node'))).toBe(true);
    }

    // EnableEmbeddedAsarIntegrityValidation checks this hash of the asar header at startup.
    const infoPlist = readFileSync(join(app, 'Info.plist'), 'utf8');
    const { headerString } = readAsar(join(app, 'Resources', 'app.asar'));
    const hash = createHash('sha256').update(headerString).digest('hex');
    expect(infoPlist).toMatch(
      new RegExp(`<key>Resources/app.asar</key>\\s*<dict>\\s*<key>algorithm</key>\\s*<string>SHA256</string>\\s*<key>hash</key>\\s*<string>${hash}</string>`),
    );
    expect(readFileSync(join(app, 'Resources', 'icon.icns')).equals(readFileSync(join(root, 'build', 'icon.icns')))).toBe(true);

    expect(await fuses(join(output, 'mac-arm64', 'Keel.app'))).toEqual({ ...PRODUCTION, EnableNodeCliInspectArguments: true });
  }, 280_000);
});
