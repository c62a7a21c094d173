import path from 'node:path';

/** The runtime's folder names for the architectures it ships an apply-seccomp binary for. */
const VENDOR_ARCH: Partial<Record<string, string>> = { x64: 'x64', arm64: 'arm64' };

/**
 * Where the sandbox runtime's apply-seccomp binary is, given the runtime's entry file. In a
 * packaged app the runtime is read from app.asar, but bubblewrap runs the binary from disk, so the
 * path names the unpacked copy (electron-builder.yml unpacks it). Undefined where the runtime
 * ships none (the runtime then warns that unix sockets are not restricted).
 */
export function seccompApplyPath(runtimeEntry: string, arch: string = process.arch): string | undefined {
  const vendorArch = VENDOR_ARCH[arch];
  if (!vendorArch) return undefined;
  // <package>/dist/index.js → <package>/vendor/seccomp/<arch>/apply-seccomp
  const packageRoot = path.dirname(path.dirname(runtimeEntry));
  const binary = path.join(packageRoot, 'vendor', 'seccomp', vendorArch, 'apply-seccomp');
  return binary.replace(/\.asar(?=[\\/])/, '.asar.unpacked');
}
