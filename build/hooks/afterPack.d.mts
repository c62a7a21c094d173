// Types for afterPack.mjs (plain JS so that electron-builder can load it without a TypeScript loader).
export type ArchName = 'ia32' | 'x64' | 'armv7l' | 'arm64' | 'universal';
export type PlatformName = 'darwin' | 'linux' | 'win32';

/** The part of electron-builder's AfterPackContext this hook reads. */
export interface AfterPackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  /** builder-util's Arch enum value (0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal) or its name. */
  arch: number | string;
  packager?: { appInfo?: { productFilename?: string } };
}

export interface NodePtyResult {
  /** node-pty's folder in app.asar.unpacked. */
  ptyDir: string;
  /** What was removed, relative to ptyDir. */
  removed: string[];
  /** The spawn-helpers made 0o755, relative to ptyDir. */
  helpers: string[];
  /** The folders the native module loads from, relative to ptyDir. */
  nativeDirs: string[];
}

export interface SeccompResult {
  /** The runtime's vendor/seccomp folder in app.asar.unpacked. */
  seccompDir: string;
  /** The architecture folders removed (other targets'). */
  removed: string[];
  /** The apply-seccomp binary made 0o755, relative to resources; none off Linux. */
  binary: string | undefined;
}

export interface BinaryDescription {
  format: 'elf' | 'mach-o' | 'pe' | 'unknown';
  platform: PlatformName | 'unknown';
  arch: string;
}

export const PREBUILT_TARGETS: readonly string[];
export class PackagingError extends Error {}
export function archName(arch: number | string): ArchName;
export function platformName(electronPlatformName: string): PlatformName;
export function prebuildsFor(platform: PlatformName, arch: ArchName): string[];
export function resourcesDir(context: AfterPackContextLike): Promise<string>;
export function describeBinary(bytes: Buffer): BinaryDescription;
export function prepareNodePty(options: { resources: string; platform: PlatformName; arch: ArchName }): Promise<NodePtyResult>;
export function prepareSeccomp(options: { resources: string; platform: PlatformName; arch: ArchName }): Promise<SeccompResult>;
export function afterPack(context: AfterPackContextLike): Promise<NodePtyResult & { seccomp: SeccompResult }>;
export default afterPack;
