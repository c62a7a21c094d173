import { open } from 'node:fs/promises';
import { folderEntries, folderNames } from '../platform/folderEntries';
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
export async function refsInTranscript(path: string): Promise<Set<ImageRef>> {
  const found = new Set<ImageRef>();
  for await (const text of textChunks(path)) for (const match of text.matchAll(ANY_REF)) found.add(match[0]);
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
      for await (const text of textChunks(transcript)) {
        if (pending.size === 0) return referenced;
        for (const ref of pending) {
          if (!text.includes(ref)) continue;
          referenced.add(ref);
          pending.delete(ref);
        }
      }
    }
  } catch {
    return new Set(candidates);
  }
  return referenced;
}

/**
 * A file as latin1 text in pieces of about a megabyte, each starting with the last OVERLAP bytes
 * of the one before, so no ref is cut in two. A file gone (trashed while the list was read) has none.
 */
async function* textChunks(path: string): AsyncGenerator<string> {
  const file = await openFile(path);
  if (!file) return;
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES + OVERLAP);
    let carried = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, carried, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      const length = carried + bytesRead;
      yield buffer.toString('latin1', 0, length);
      carried = Math.min(OVERLAP, length);
      buffer.copyWithin(0, length - carried, length);
    }
  } finally {
    await file.close();
  }
}

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
  const files: string[] = [];
  for (const folder of await folderEntries(root)) {
    if (!folder.isDirectory()) continue;
    for (const name of await folderNames(join(root, folder.name))) if (name.endsWith('.jsonl')) files.push(join(root, folder.name, name));
  }
  return files;
}
