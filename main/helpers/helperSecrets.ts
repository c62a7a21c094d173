import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Where the git plumbing keeps helpers' worktrees inside the data folder (main/helpers/git). */
const WORKTREES_FOLDER = 'worktrees';

/**
 * The paths a helper in a worktree may not read: the same as the main agent's, except that its
 * worktree lives under the data folder, so the data folder is hidden entry by entry (settings,
 * sessions, keys...) and only the worktrees' folder stays open.
 */
export function helperSecrets(secrets: readonly string[], dataDir: string): string[] {
  const data = path.resolve(dataDir);
  if (!secrets.includes(data)) return [...secrets];
  const entries = existsSync(data) ? readdirSync(data).filter((name) => name !== WORKTREES_FOLDER) : [];
  // The settings file may hold the API key: hidden even when it does not exist yet.
  const hidden = new Set([...entries, 'settings.json'].map((name) => path.join(data, name)));
  return [...secrets.filter((secret) => secret !== data), ...hidden];
}
