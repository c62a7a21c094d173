import path from 'node:path';
import { isInside } from '../platform/paths';

/**
 * Places under the home folder that hold credentials: neither a sandboxed command nor Keel's
 * file tools may read them. One list for both, so a secret hidden from `cat` is not handed out
 * by read_file.
 */
export const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.docker/config.json',
  '.kube',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'Library/Keychains',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Cookies',
] as const;

export interface SecretPlaces {
  home: string;
  /** Keel's own data folder: settings (maybe the API key), transcripts, the key store. */
  dataDir?: string;
}

/** Absolute paths that are never readable by an agent's command or file tool. */
export function secretPaths(places: SecretPlaces): string[] {
  const list: string[] = HOME_SECRETS.map((entry) => path.join(places.home, entry));
  if (places.dataDir) list.push(path.resolve(places.dataDir));
  return list;
}

/** The secrets at or below `folder` (a workspace at the home folder holds ~/.ssh): what a walk of it must pass over. */
export function secretsWithin(folder: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret === folder || isInside(folder, secret));
}

/** Whether a real absolute path is a secret or lies inside one. */
export function isSecretPath(absolute: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => absolute === secret || isInside(secret, absolute));
}
