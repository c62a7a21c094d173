import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';

/** The entries of `folder`, or none when it does not exist (yet); any other failure is thrown. */
export async function folderEntries(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The names in `folder`, or none when it does not exist (yet). */
export async function folderNames(folder: string): Promise<string[]> {
  return (await folderEntries(folder)).map((entry) => entry.name);
}
