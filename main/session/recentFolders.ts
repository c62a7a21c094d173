import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface RecentFolder {
  path: string;
  name: string;
  openedAt: string;
}

const MAX_RECENT = 12;

function recentPath(dataDir: string): string {
  return join(dataDir, 'recent-folders.json');
}

/** The folders opened lately, newest first; a damaged file is treated as empty, not fatal. */
export function readRecentFolders(dataDir: string): RecentFolder[] {
  const path = recentPath(dataDir);
  if (!existsSync(path)) return [];
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!Array.isArray(value)) return [];
    return value
      .filter((f): f is RecentFolder => typeof f?.path === 'string' && typeof f?.openedAt === 'string')
      .map((f) => ({ ...f, name: basename(f.path) }));
  } catch {
    return [];
  }
}

export function rememberFolder(dataDir: string, folder: string, now = new Date()): RecentFolder[] {
  const list = [{ path: folder, name: basename(folder), openedAt: now.toISOString() }, ...readRecentFolders(dataDir).filter((f) => f.path !== folder)].slice(
    0,
    MAX_RECENT,
  );
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temp = `${recentPath(dataDir)}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, recentPath(dataDir));
  return list;
}
