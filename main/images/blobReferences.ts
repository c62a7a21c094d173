import { closeSync, openSync, readSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageRef } from './imageBlobs';

const CHUNK_BYTES = 1024 * 1024;
/** `<64 hex>.<ext>`: the longest ref is 69 bytes, so chunks overlap by 68 and none is cut in two. */
const OVERLAP = 68;
const ANY_REF = /[0-9a-f]{64}\.(?:png|jpg|gif|webp)/g;

/**
 * Every picture name a transcript mentions. Read as text, not as records: a ref in any record
 * type (message, task, queued, tool result) counts, and a false match only keeps a blob longer.
 */
export function refsInTranscript(path: string): Set<ImageRef> {
  const found = new Set<ImageRef>();
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES + OVERLAP);
    let carried = 0;
    for (;;) {
      const read = readSync(fd, buffer, carried, CHUNK_BYTES, null);
      if (read === 0) break;
      const length = carried + read;
      for (const match of buffer.toString('latin1', 0, length).matchAll(ANY_REF)) found.add(match[0]);
      carried = Math.min(OVERLAP, length);
      buffer.copyWithin(0, length - carried, length);
    }
  } finally {
    closeSync(fd);
  }
  return found;
}

/**
 * Which of `candidates` some session's transcript in the data folder still names (every folder's
 * sessions, not the trash). Stops reading once all are found. A transcript that cannot be read
 * keeps every candidate: not knowing is never a reason to remove a picture.
 */
export async function stillReferenced(dataDir: string, candidates: ReadonlySet<ImageRef>): Promise<Set<ImageRef>> {
  const referenced = new Set<ImageRef>();
  const pending = new Set(candidates);
  try {
    for (const transcript of await transcripts(dataDir)) {
      if (pending.size === 0) break;
      await scan(transcript, pending, referenced);
    }
  } catch {
    return new Set(candidates);
  }
  return referenced;
}

async function scan(path: string, pending: Set<ImageRef>, referenced: Set<ImageRef>): Promise<void> {
  const file = await openFile(path);
  if (!file) return;
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES + OVERLAP);
    let carried = 0;
    while (pending.size > 0) {
      const { bytesRead } = await file.read(buffer, carried, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const length = carried + bytesRead;
      const text = buffer.toString('latin1', 0, length);
      for (const ref of pending) {
        if (!text.includes(ref)) continue;
        referenced.add(ref);
        pending.delete(ref);
      }
      carried = Math.min(OVERLAP, length);
      buffer.copyWithin(0, length - carried, length);
    }
  } finally {
    await file.close();
  }
}

/** A transcript deleted (trashed) while the list was read is simply not one any more. */
async function openFile(path: string) {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** `<data>/sessions/<folder key>/<id>.jsonl`, for every folder. */
async function transcripts(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'sessions');
  const folders = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files: string[] = [];
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const names = await readdir(join(root, folder.name));
    for (const name of names) if (name.endsWith('.jsonl')) files.push(join(root, folder.name, name));
  }
  return files;
}
