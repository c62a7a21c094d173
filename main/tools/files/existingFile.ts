import { open, stat } from 'node:fs/promises';
import { bomLength, decode, dominantEol, SAMPLE_BYTES, sniff, type Sniffed, type TextEncoding } from './encoding';
import { MAX_WHOLE_FILE_BYTES } from './lineReader';

/** What is at a path a write is about to replace, so the write can keep its encoding, line endings and mode. */
export type Target =
  | { kind: 'missing' }
  | { kind: 'folder' }
  | { kind: 'special' }
  | { kind: 'file'; mode: number; size: number; sniffed: Sniffed; eol: '\n' | '\r\n'; links: number };

export async function probeTarget(absolutePath: string): Promise<Target> {
  const info = await statOrNull(absolutePath);
  if (!info) return { kind: 'missing' };
  if (info.isDirectory()) return { kind: 'folder' };
  if (!info.isFile()) return { kind: 'special' };
  const handle = await open(absolutePath, 'r');
  try {
    const sample = Buffer.alloc(Math.min(SAMPLE_BYTES, info.size));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    const bytes = sample.subarray(0, bytesRead);
    const sniffed = sniff(bytes, bytesRead >= info.size);
    const eol = sniffed.kind === 'text' ? dominantEol(decode(bytes.subarray(bomLength(sniffed.encoding)), sniffed.encoding)) : '\n';
    return { kind: 'file', mode: info.mode & 0o7777, size: info.size, sniffed, eol, links: info.nlink };
  } finally {
    await handle.close();
  }
}

export type WholeText =
  | { kind: 'missing' }
  | { kind: 'folder' }
  | { kind: 'special' }
  | { kind: 'too-large'; size: number }
  | { kind: 'binary'; reason: string }
  | { kind: 'text'; mode: number; bytes: Buffer; encoding: TextEncoding; text: string; links: number };

/** A whole text file, decoded, for an edit (which must see all of it to count matches). */
export async function loadWholeText(absolutePath: string): Promise<WholeText> {
  const info = await statOrNull(absolutePath);
  if (!info) return { kind: 'missing' };
  if (info.isDirectory()) return { kind: 'folder' };
  if (!info.isFile()) return { kind: 'special' };
  if (info.size > MAX_WHOLE_FILE_BYTES) return { kind: 'too-large', size: info.size };
  const handle = await open(absolutePath, 'r');
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const sniffed = sniff(bytes, true);
  if (sniffed.kind === 'binary') return { kind: 'binary', reason: sniffed.reason };
  const text = decode(bytes.subarray(bomLength(sniffed.encoding)), sniffed.encoding);
  return { kind: 'text', mode: info.mode & 0o7777, bytes, encoding: sniffed.encoding, text, links: info.nlink };
}

async function statOrNull(absolutePath: string) {
  try {
    return await stat(absolutePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A note for a write that replaced a file with other hard links. The write stays a rename (atomic,
 * and confined: another link to the same file may lie outside the workspace, e.g. a pnpm store or
 * a dotfile, and writing in place would change it there), so the other names keep the old content.
 */
export function hardLinkNote(links: number): string | undefined {
  if (links <= 1) return undefined;
  const others = links - 1;
  return `the file had ${others} other hard link${others === 1 ? '' : 's'}, which keep${others === 1 ? 's' : ''} the old content`;
}
