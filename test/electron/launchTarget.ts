import { join } from 'node:path';

/**
 * Which Electron app the launch test drives: the packaged test build when there is one (it runs
 * as it ships: asar, fuses flipped, its page from keel://app), else the dev build in the Electron
 * binary the electron package downloaded, else nothing, with the reason.
 */
export type LaunchTarget =
  | { kind: 'packaged'; executable: string; /** Before the folder: a packaged app loads its own asar. */ args: string[] }
  | { kind: 'dev'; executable: string; args: string[] }
  | { kind: 'none'; reason: string };

export interface TargetFacts {
  root: string;
  platform: NodeJS.Platform;
  exists(path: string): boolean;
  /** KEEL_ELECTRON_APP: an executable of a packaged test build, wherever it is. */
  override?: string | undefined;
  /** The electron package's binary, or why there is none. */
  electron: { binary: string | null; reason: string };
}

/** Where `KEEL_TEST_BUILD=1 npm run dist -- --dir` leaves the executable, per platform and arch. */
export function packagedExecutables(root: string, platform: NodeJS.Platform): string[] {
  const dist = join(root, 'dist');
  if (platform === 'linux') return ['linux-unpacked', 'linux-arm64-unpacked', 'linux-armv7l-unpacked'].map((dir) => join(dist, dir, 'keel'));
  if (platform === 'darwin') return ['mac', 'mac-arm64', 'mac-universal'].map((dir) => join(dist, dir, 'Keel.app', 'Contents', 'MacOS', 'Keel'));
  if (platform === 'win32') return ['win-unpacked', 'win-arm64-unpacked', 'win-ia32-unpacked'].map((dir) => join(dist, dir, 'Keel.exe'));
  return [];
}

export function chooseLaunchTarget(facts: TargetFacts): LaunchTarget {
  if (facts.override) {
    return facts.exists(facts.override)
      ? { kind: 'packaged', executable: facts.override, args: [] }
      : { kind: 'none', reason: `KEEL_ELECTRON_APP names ${facts.override}, which does not exist` };
  }
  const packaged = packagedExecutables(facts.root, facts.platform).find((path) => facts.exists(path));
  if (packaged) return { kind: 'packaged', executable: packaged, args: [] };
  if (facts.electron.binary) return { kind: 'dev', executable: facts.electron.binary, args: [join(facts.root, 'out', 'main', 'index.js')] };
  return {
    kind: 'none',
    reason: `no packaged test build (looked for ${packagedExecutables(facts.root, facts.platform).join(', ') || 'nothing on this platform'}; make one with KEEL_TEST_BUILD=1 npm run dist -- --dir) and ${facts.electron.reason}`,
  };
}
