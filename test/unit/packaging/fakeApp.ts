// Fake packed apps for the afterPack hook's tests: the folder layout electron-builder leaves behind
// (resources/app.asar.unpacked/node_modules/node-pty/...) with stand-in native binaries whose
// headers name a platform and an architecture, as real ones do.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

type Arch = 'ia32' | 'x64' | 'armv7l' | 'arm64';

const ELF_MACHINE: Record<Arch, number> = { ia32: 3, armv7l: 40, x64: 62, arm64: 183 };
const MACHO_CPU: Record<Arch, number> = { ia32: 7, armv7l: 12, x64: 0x01000007, arm64: 0x0100000c };
const PE_MACHINE: Record<Arch, number> = { ia32: 0x14c, armv7l: 0x1c4, x64: 0x8664, arm64: 0xaa64 };

/** The first bytes of a 64-bit little-endian ELF shared object for `arch`. */
export function elf(arch: Arch): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.write('\x7fELF', 0, 'latin1');
  bytes[4] = 2; // 64-bit
  bytes[5] = 1; // little-endian
  bytes[6] = 1;
  bytes.writeUInt16LE(3, 16); // ET_DYN
  bytes.writeUInt16LE(ELF_MACHINE[arch], 18);
  return bytes;
}

/** The first bytes of a 64-bit Mach-O binary for `arch`. */
export function macho(arch: Arch): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.writeUInt32LE(0xfeedfacf, 0);
  bytes.writeUInt32LE(MACHO_CPU[arch], 4);
  return bytes;
}

/** The first bytes of a PE (Windows) DLL for `arch`. */
export function pe(arch: Arch): Buffer {
  const bytes = Buffer.alloc(0x100);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  bytes.writeUInt16LE(PE_MACHINE[arch], 0x84);
  return bytes;
}

export interface FakeApp {
  /** What afterPack gets as appOutDir. */
  appOutDir: string;
  /** <appOutDir>/resources or <appOutDir>/Keel.app/Contents/Resources. */
  resources: string;
  /** node-pty's folder in app.asar.unpacked. */
  ptyDir: string;
}

export interface FakeAppOptions {
  /** The platform the app folder is laid out for. */
  layout: 'linux' | 'win32' | 'darwin';
  /** What build/Release/pty.node is (the packing machine's local compile), or null for no build/. */
  localBuild: Buffer | null;
  /** Leave node-pty out of app.asar.unpacked altogether. */
  withoutNodePty?: boolean;
  /** Prebuild folders to leave out. */
  withoutPrebuilds?: string[];
  /** Leave the sandbox runtime's seccomp helper out of app.asar.unpacked. */
  withoutSeccomp?: boolean;
}

function put(path: string, content: string | Buffer, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

/** node-pty 1.1.0 as npm installs it, in a fake packed app, with spawn-helpers at 0o644. */
export function makeFakeApp(options: FakeAppOptions): FakeApp {
  const appOutDir = mkdtempSync(join(tmpdir(), 'keel-afterpack-'));
  const resources = options.layout === 'darwin' ? join(appOutDir, 'Keel.app', 'Contents', 'Resources') : join(appOutDir, 'resources');
  mkdirSync(resources, { recursive: true });
  put(join(resources, 'app.asar'), 'not really an asar');
  const unpacked = join(resources, 'app.asar.unpacked');
  const ptyDir = join(unpacked, 'node_modules', 'node-pty');
  mkdirSync(unpacked, { recursive: true });
  // The sandbox runtime's seccomp helpers as npm installs them (this test keeps them at 0o644).
  if (!options.withoutSeccomp) {
    for (const arch of ['x64', 'arm64'] as const) {
      put(join(unpacked, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp', arch, 'apply-seccomp'), elf(arch));
    }
  }
  if (options.withoutNodePty) return { appOutDir, resources, ptyDir };

  put(join(ptyDir, 'package.json'), JSON.stringify({ name: 'node-pty', version: '1.1.0', main: './lib/index.js' }));
  put(join(ptyDir, 'lib', 'index.js'), '// node-pty');
  put(join(ptyDir, 'lib', 'utils.js'), '// loadNativeModule');
  put(join(ptyDir, 'binding.gyp'), '{}');
  put(join(ptyDir, 'src', 'unix', 'pty.cc'), '// source');
  put(join(ptyDir, 'deps', 'winpty', 'README.md'), 'winpty');
  put(join(ptyDir, 'third_party', 'conpty', '1.23.251008001', 'win10-x64', 'conpty.dll'), pe('x64'));

  const skip = new Set(options.withoutPrebuilds ?? []);
  const prebuild = (name: string, files: Record<string, Buffer | string>): void => {
    if (skip.has(name)) return;
    for (const [file, content] of Object.entries(files)) put(join(ptyDir, 'prebuilds', name, file), content);
  };
  prebuild('darwin-arm64', { 'pty.node': macho('arm64'), 'spawn-helper': macho('arm64') });
  prebuild('darwin-x64', { 'pty.node': macho('x64'), 'spawn-helper': macho('x64') });
  for (const arch of ['x64', 'arm64'] as const) {
    prebuild(`win32-${arch}`, {
      'pty.node': pe(arch),
      'pty.pdb': 'symbols',
      'conpty.node': pe(arch),
      'conpty.pdb': 'symbols',
      'conpty_console_list.node': pe(arch),
      'winpty.dll': pe(arch),
      'winpty-agent.exe': pe(arch),
      'conpty/conpty.dll': pe(arch),
      'conpty/OpenConsole.exe': pe(arch),
    });
  }

  if (options.localBuild) {
    put(join(ptyDir, 'build', 'Release', 'pty.node'), options.localBuild, 0o755);
    put(join(ptyDir, 'build', 'Release', 'obj.target', 'pty', 'src', 'unix', 'pty.o'), 'object');
    put(join(ptyDir, 'build', 'Makefile'), 'all:');
    put(join(ptyDir, 'build', 'config.gypi'), '{ "variables": { "nodedir": "/home/someone/.cache/node-gyp" } }');
    put(join(ptyDir, 'build', 'Debug', 'pty.node'), options.localBuild);
  }
  return { appOutDir, resources, ptyDir };
}
