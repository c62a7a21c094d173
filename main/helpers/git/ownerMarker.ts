import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * Beside each worktree, `<name>.json` says which Keel process made it. Written before the worktree
 * exists, removed after it is gone: a marker whose process has ended names a crash's leftovers,
 * unless `keptFor` names the session that kept the worktree for the person (a conflict, or a
 * stopped helper's changes): that one outlives its process until merged, discarded or its session
 * is deleted.
 */
const OwnerMarkerSchema = z.object({
  pid: z.number().int(),
  helperId: z.string(),
  workspace: z.string(),
  createdAt: z.string(),
  keptFor: z.string().optional(),
});
export type OwnerMarker = z.infer<typeof OwnerMarkerSchema>;

export async function writeOwnerMarker(file: string, marker: OwnerMarker): Promise<void> {
  await writeFile(file, JSON.stringify(marker), { flag: 'wx' });
}

/** Replaces an existing marker whole: written beside it, then renamed over it, so no reader sees half. */
export async function replaceOwnerMarker(file: string, marker: OwnerMarker, scratchFile: string): Promise<void> {
  await writeFile(scratchFile, JSON.stringify(marker), { flag: 'wx' });
  await rename(scratchFile, file);
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
