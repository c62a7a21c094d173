import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * Beside each worktree, `<name>.json` says which Keel process made it. Written before the worktree
 * exists, removed after it is gone: a marker whose process has ended names a crash's leftovers.
 */
const OwnerMarkerSchema = z.object({ pid: z.number().int(), helperId: z.string(), workspace: z.string(), createdAt: z.string() });
export type OwnerMarker = z.infer<typeof OwnerMarkerSchema>;

export async function writeOwnerMarker(file: string, marker: OwnerMarker): Promise<void> {
  await writeFile(file, JSON.stringify(marker), { flag: 'wx' });
}

/** The marker, or null when it is missing or unreadable (then nobody owns the worktree). */
export async function readOwnerMarker(file: string): Promise<OwnerMarker | null> {
  try {
    return OwnerMarkerSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

/** Whether a process of that id runs (one we may not signal runs too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
