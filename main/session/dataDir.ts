import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `keel web` and `keel run` keep sessions and settings: $KEEL_HOME, else ~/.keel.
 * (The Electron host uses its userData folder instead.)
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.KEEL_HOME && env.KEEL_HOME.trim() !== '' ? env.KEEL_HOME : join(homedir(), '.keel');
}
