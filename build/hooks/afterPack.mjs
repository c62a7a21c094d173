// electron-builder `afterPack` hook: makes the unpacked node-pty in a packed app right for the
// platform and architecture being built, before electron-builder flips the fuses and signs.
//
// node-pty 1.1 loads its native module from the first of, relative to its lib/ folder:
//   build/Release, build/Debug, prebuilds/<platform>-<arch>
// and ships prebuilds for darwin-x64, darwin-arm64, win32-x64 and win32-arm64 only; on Linux its
// install step compiles build/Release/pty.node on the machine that ran `npm ci`. So:
//   - a target with prebuilds (macOS, Windows): any build/ folder is a local compile for the machine
//     that packed the app (another platform, or another arch) and would shadow the right prebuild:
//     it is removed, and so are the prebuilds for other targets. macOS keeps both darwin prebuilds,
//     so that an x64, an arm64 or a universal app (whose two halves must hold the same files) works.
//   - a target without prebuilds (Linux): build/Release/pty.node is what loads; it is kept only if it
//     is an ELF binary for the target's architecture (npmRebuild is off: node-pty is N-API and is
//     not rebuilt for Electron, so a Linux package is made on a Linux machine of the same arch).
//     Everything else in build/ (Makefiles, config.gypi with local paths) and prebuilds/ goes.
//   - debug symbols (*.pdb) and the sources and build inputs (src/, deps/, third_party/,
//     binding.gyp) are not needed at run time and are removed.
//   - every spawn-helper left (macOS: node-pty starts each shell through it) is made 0o755: the npm
//     tarball does not keep its executable bit, and without it every pty fails with posix_spawnp.
//     A hard-linked one is copied first, so that the project's node_modules is never changed.
import { chmod, copyFile, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

/** builder-util's Arch enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** Targets node-pty 1.1 ships prebuilds for. */
export const PREBUILT_TARGETS = ['darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

const BUILD_INPUTS = ['src', 'deps', 'third_party', 'binding.gyp'];

export class PackagingError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PackagingError';
  }
}

/** 'x64' for Arch.x64 (1) or 'x64'. */
export function archName(arch) {
  if (typeof arch === 'string' && ARCH_NAMES.includes(arch)) return arch;
  if (typeof arch === 'number' && ARCH_NAMES[arch]) return ARCH_NAMES[arch];
  throw new PackagingError(`unknown architecture ${String(arch)}`);
}

/** 'darwin' for mas too. */
export function platformName(electronPlatformName) {
  if (electronPlatformName === 'mas') return 'darwin';
  if (['darwin', 'linux', 'win32'].includes(electronPlatformName)) return electronPlatformName;
  throw new PackagingError(`unknown platform ${String(electronPlatformName)}`);
}

/** The prebuild folders that the target loads (none: it loads build/Release). */
export function prebuildsFor(platform, arch) {
  if (platform === 'darwin') {
    if (!['x64', 'arm64', 'universal'].includes(arch)) return [];
    return ['darwin-x64', 'darwin-arm64'];
  }
  const name = `${platform}-${arch}`;
  return PREBUILT_TARGETS.includes(name) ? [name] : [];
}

/** The resources folder of a packed app (where app.asar and app.asar.unpacked are). */
export async function resourcesDir(context) {
  const platform = platformName(context.electronPlatformName);
  if (platform !== 'darwin') return join(context.appOutDir, 'resources');
  const productFilename = context.packager?.appInfo?.productFilename;
  let bundle = productFilename ? `${productFilename}.app` : undefined;
  if (!bundle) {
    const apps = (await readdir(context.appOutDir)).filter((name) => name.endsWith('.app'));
    if (apps.length !== 1) throw new PackagingError(`expected one .app bundle in ${context.appOutDir}, found ${apps.length}`);
    bundle = apps[0];
  }
  return join(context.appOutDir, bundle, 'Contents', 'Resources');
}

const ELF_MACHINES = { 3: 'ia32', 40: 'armv7l', 62: 'x64', 183: 'arm64' };
const MACHO_CPUS = { 7: 'ia32', 12: 'armv7l', 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x14c: 'ia32', 0x1c4: 'armv7l', 0x8664: 'x64', 0xaa64: 'arm64' };

/** What a native binary is built for, from its header: { format, arch } (arch 'universal' for a fat Mach-O). */
export function describeBinary(bytes) {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const little = bytes[5] === 1;
    const machine = little ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
    return { format: 'elf', platform: 'linux', arch: ELF_MACHINES[machine] ?? `machine ${machine}` };
  }
  if (bytes.length >= 8 && (bytes.readUInt32BE(0) === 0xcafebabe || bytes.readUInt32BE(0) === 0xcafebabf)) {
    return { format: 'mach-o', platform: 'darwin', arch: 'universal' };
  }
  if (bytes.length >= 8 && [0xfeedface, 0xfeedfacf].includes(bytes.readUInt32LE(0))) {
    const cpu = bytes.readUInt32LE(4);
    return { format: 'mach-o', platform: 'darwin', arch: MACHO_CPUS[cpu] ?? `cpu ${cpu}` };
  }
  if (bytes.length >= 64 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.length >= pe + 6 && bytes.toString('latin1', pe, pe + 4) === 'PE\0\0') {
      const machine = bytes.readUInt16LE(pe + 4);
      return { format: 'pe', platform: 'win32', arch: PE_MACHINES[machine] ?? `machine ${machine}` };
    }
  }
  return { format: 'unknown', platform: 'unknown', arch: 'unknown' };
}

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

async function readHeader(path) {
  const bytes = await readFile(path);
  return bytes.subarray(0, 4096);
}

/**
 * Prepares node-pty under `<resources>/app.asar.unpacked/node_modules/node-pty` for one target.
 * Returns what it did, for the log and the tests.
 */
export async function prepareNodePty({ resources, platform, arch }) {
  const unpacked = join(resources, 'app.asar.unpacked');
  const ptyDir = join(unpacked, 'node_modules', 'node-pty');
  if (!(await exists(join(ptyDir, 'package.json')))) {
    throw new PackagingError(
      `node-pty is missing from the unpacked app (${ptyDir}): it must be a production dependency and ` +
        `electron-builder.yml's asarUnpack must include node_modules/node-pty/**, or no terminal can start.`,
    );
  }
  const removed = [];
  const remove = async (path) => {
    if (!(await exists(path))) return;
    await rm(path, { recursive: true, force: true });
    removed.push(relative(ptyDir, path));
  };

  const keep = prebuildsFor(platform, arch);
  const prebuildsDir = join(ptyDir, 'prebuilds');
  const present = (await exists(prebuildsDir)) ? await readdir(prebuildsDir) : [];
  let nativeDirs;
  if (keep.length > 0) {
    const missing = keep.filter((name) => !present.includes(name));
    if (missing.length > 0) {
      throw new PackagingError(`node-pty's prebuilds for ${missing.join(', ')} are missing from ${prebuildsDir}`);
    }
    await remove(join(ptyDir, 'build'));
    for (const name of present) if (!keep.includes(name)) await remove(join(prebuildsDir, name));
    nativeDirs = keep.map((name) => join(prebuildsDir, name));
  } else {
    const release = join(ptyDir, 'build', 'Release');
    const binary = join(release, 'pty.node');
    if (!(await exists(binary))) {
      throw new PackagingError(
        `node-pty has no prebuild for ${platform}-${arch} and no local build at ${binary}: ` +
          `run \`npm ci\` on a ${platform}-${arch} machine (it compiles node-pty) and package there.`,
      );
    }
    const found = describeBinary(await readHeader(binary));
    if (found.platform !== platform || found.arch !== arch) {
      throw new PackagingError(
        `node-pty's local build ${binary} is ${found.format} for ${found.arch}, not ${platform}-${arch}: ` +
          `package for ${platform}-${arch} on a ${platform}-${arch} machine (node-pty is not rebuilt here).`,
      );
    }
    for (const name of await readdir(join(ptyDir, 'build'))) if (name !== 'Release') await remove(join(ptyDir, 'build', name));
    for (const name of await readdir(release)) if (name !== 'pty.node' && name !== 'spawn-helper') await remove(join(release, name));
    await remove(prebuildsDir);
    nativeDirs = [release];
  }

  for (const name of BUILD_INPUTS) await remove(join(ptyDir, name));
  for await (const path of walk(ptyDir)) if (path.endsWith('.pdb')) await remove(path);

  const helpers = [];
  for await (const path of walk(ptyDir)) {
    if (basename(path) !== 'spawn-helper') continue;
    // electron-builder hard-links instead of copying under USE_HARD_LINKS=true: never chmod the
    // project's own node_modules through a shared inode.
    if ((await stat(path)).nlink > 1) {
      await copyFile(path, `${path}.unlinked`);
      await rename(`${path}.unlinked`, path);
    }
    await chmod(path, 0o755);
    helpers.push(relative(ptyDir, path));
  }
  if (platform === 'darwin') {
    const without = nativeDirs.filter((dir) => !helpers.includes(relative(ptyDir, join(dir, 'spawn-helper'))));
    if (without.length > 0) {
      throw new PackagingError(`node-pty's spawn-helper is missing from ${without.join(', ')}: no shell could start on macOS`);
    }
  }
  for (const dir of nativeDirs) {
    if (!(await exists(join(dir, 'pty.node')))) throw new PackagingError(`node-pty's native module is missing: ${join(dir, 'pty.node')}`);
  }
  return { ptyDir, removed, helpers, nativeDirs: nativeDirs.map((dir) => relative(ptyDir, dir)) };
}

/** The sandbox runtime's architectures with an apply-seccomp binary (its vendor/seccomp/<arch>). */
const SECCOMP_ARCHES = ['x64', 'arm64'];

/**
 * Prepares the sandbox runtime's seccomp helper under `<resources>/app.asar.unpacked`: bubblewrap
 * runs it from disk (main/sandbox/seccompPath.ts names the unpacked copy), so on Linux the
 * target's binary must be there, an ELF for the target, and executable; without it the sandbox
 * still starts but cannot block unix sockets. Other platforms and arches' copies are removed.
 */
export async function prepareSeccomp({ resources, platform, arch }) {
  const seccompDir = join(resources, 'app.asar.unpacked', 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp');
  const removed = [];
  const present = (await exists(seccompDir)) ? await readdir(seccompDir) : [];
  const keep = platform === 'linux' && SECCOMP_ARCHES.includes(arch) ? arch : undefined;
  for (const name of present) {
    if (name === keep) continue;
    await rm(join(seccompDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  if (!keep) return { seccompDir, removed, binary: undefined };
  const binary = join(seccompDir, keep, 'apply-seccomp');
  if (!(await exists(binary))) {
    throw new PackagingError(
      `the sandbox's seccomp helper is missing from the unpacked app (${binary}): electron-builder.yml's asarUnpack must ` +
        `include node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/**, or sandboxed commands could reach any unix socket.`,
    );
  }
  const found = describeBinary(await readHeader(binary));
  if (found.platform !== 'linux' || found.arch !== arch) {
    throw new PackagingError(`the sandbox's seccomp helper ${binary} is ${found.format} for ${found.arch}, not linux-${arch}`);
  }
  if ((await stat(binary)).nlink > 1) {
    await copyFile(binary, `${binary}.unlinked`);
    await rename(`${binary}.unlinked`, binary);
  }
  await chmod(binary, 0o755);
  return { seccompDir, removed, binary: relative(resources, binary) };
}

export async function afterPack(context) {
  const platform = platformName(context.electronPlatformName);
  const arch = archName(context.arch);
  const resources = await resourcesDir(context);
  const result = await prepareNodePty({ resources, platform, arch });
  console.log(
    `  • afterPack: node-pty for ${platform}-${arch} loads ${result.nativeDirs.join(', ')}; ` +
      `removed ${result.removed.length ? result.removed.join(', ') : 'nothing'}; ` +
      `made executable ${result.helpers.length ? result.helpers.join(', ') : 'nothing (no spawn-helper on this platform)'}`,
  );
  const seccomp = await prepareSeccomp({ resources, platform, arch });
  console.log(
    `  • afterPack: the sandbox's seccomp helper: ${seccomp.binary ? `${seccomp.binary} executable` : `none on ${platform}-${arch}`}; ` +
      `removed ${seccomp.removed.length ? seccomp.removed.join(', ') : 'nothing'}`,
  );
  return { ...result, seccomp };
}

export default afterPack;
