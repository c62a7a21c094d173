import { chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * node-pty's `spawn-helper`, which it runs (on macOS) to start every pty's program. node-pty
 * 1.1.0 is published with it not executable (its prebuilds lose the bit in the tarball), so from
 * a checkout (`npm start`, `keel web`, `keel run`) every pty failed with "posix_spawnp failed".
 * The packaging hook fixes packaged apps; this fixes every other start.
 */
export function spawnHelperCandidates(ptyDir: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  return [
    path.join(ptyDir, 'build', 'Release', 'spawn-helper'),
    path.join(ptyDir, 'build', 'Debug', 'spawn-helper'),
    path.join(ptyDir, 'prebuilds', `${platform}-${arch}`, 'spawn-helper'),
  ];
}

export type HelperFix = { path: string; outcome: 'fixed' | 'already executable' } | { path: string; outcome: 'failed'; reason: string };

/**
 * Adds the execute bits to each helper that exists and lacks them; one that is executable is not
 * touched (a signed app bundle must not be written to). Never throws: a helper it cannot fix is
 * reported, and node-pty's own error follows at the first spawn.
 */
export function makeHelpersExecutable(files: readonly string[]): HelperFix[] {
  const results: HelperFix[] = [];
  for (const file of files) {
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch {
      continue; // not shipped for this platform or build
    }
    if ((mode & 0o111) === 0o111) {
      results.push({ path: file, outcome: 'already executable' });
      continue;
    }
    try {
      chmodSync(file, (mode & 0o7777) | 0o111);
      results.push({ path: file, outcome: 'fixed' });
    } catch (error) {
      results.push({ path: file, outcome: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return results;
}

/** Where node-pty is installed; inside a packaged app, its unpacked copy (as node-pty itself looks). */
export function nodePtyDir(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('node-pty/package.json');
    return path.dirname(pkg).replace('app.asar', 'app.asar.unpacked');
  } catch {
    return undefined;
  }
}

let checked = false;

/** Once per process, before the first pty: a no-op on Windows, where there is no helper. */
export function ensureSpawnHelperExecutable(log?: (message: string) => void, platform: NodeJS.Platform = process.platform): void {
  if (checked || platform === 'win32') return;
  checked = true;
  const dir = nodePtyDir();
  if (dir === undefined) return;
  for (const result of makeHelpersExecutable(spawnHelperCandidates(dir, platform))) {
    if (result.outcome === 'failed') {
      log?.(
        `warning: node-pty's ${result.path} is not executable and could not be fixed (${result.reason}); terminals and commands may fail with "posix_spawnp failed". Run: chmod +x "${result.path}"`,
      );
    }
  }
}
