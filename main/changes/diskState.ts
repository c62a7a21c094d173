import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { samePath } from '../platform/paths';
import { resolveInWorkspace } from '../tools/files/fileAccess';
import { hashFile } from './blobStore';

export type Located = { ok: true; absolute: string } | { ok: false; reason: string; code: 'outside' | 'through_symlink'; params: Record<string, string> };

/**
 * Where a recorded file is now, for undo or redo to write to. It must still be the same place
 * inside the workspace: a folder on the way swapped for a symbolic link (to outside, or to another
 * file inside) is refused, even when forced, because writing there is not putting this file back.
 */
export async function locate(workspace: string, relative: string): Promise<Located> {
  const resolved = await resolveInWorkspace(workspace, relative);
  if (!resolved.ok) {
    return { ok: false, reason: `${resolved.message} Keel never writes outside the workspace, so this file was left alone.`, code: 'outside', params: {} };
  }
  const expected = path.join(workspace, ...relative.split('/'));
  // By the platform's rules of case: on Windows and macOS `Src/a.ts` and `src/a.ts` are one file.
  if (!samePath(resolved.absolute, expected)) {
    return {
      ok: false,
      reason: `"${relative}" now leads through a symbolic link to ${resolved.absolute}, so it is no longer the file the agent changed. It was left alone; restore it by hand if you need to.`,
      code: 'through_symlink',
      params: { target: resolved.absolute },
    };
  }
  return { ok: true, absolute: expected };
}

export type OnDisk = { kind: 'missing' } | { kind: 'file'; hash: string } | { kind: 'other'; what: string; type: 'folder' | 'link' | 'special' };

/** What is at the path now, by content hash, to compare with what Keel recorded. */
export async function onDisk(absolute: string): Promise<OnDisk> {
  let info;
  try {
    info = await lstat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw error;
  }
  if (info.isDirectory()) return { kind: 'other', what: 'a folder', type: 'folder' };
  if (info.isSymbolicLink()) return { kind: 'other', what: 'a symbolic link', type: 'link' };
  if (!info.isFile()) return { kind: 'other', what: 'a device, socket or pipe', type: 'special' };
  return { kind: 'file', hash: await hashFile(absolute) };
}
