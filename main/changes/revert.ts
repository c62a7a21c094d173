import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { atomicWriteFile } from '../tools/files/fileAccess';
import type { BlobStore } from './blobStore';
import type { Snapshot } from './changeIndex';
import type { ChangeHistory, FileHistory, TaskHistory } from './changeHistory';
import type { ChangeConflictCode } from '../../common/changeConflicts';
import { locate, onDisk, type OnDisk } from './diskState';

export type Direction = 'undo' | 'redo';

export type Outcome =
  | { kind: 'done'; forced: boolean; replaced: string | null }
  /**
   * `forceable`: the person may overwrite anyway; false when writing would leave the workspace or
   * Keel lacks the bytes. `code` and `params` say `reason` again for the window to translate.
   */
  | { kind: 'conflict'; reason: string; forceable: boolean; code: ChangeConflictCode; params: Record<string, string> };

export interface RevertInput {
  workspace: string;
  blobs: BlobStore;
  history: ChangeHistory;
  taskId: string;
  file: FileHistory;
  direction: Direction;
  force: boolean;
}

/**
 * Puts one file back to how it was before the task (undo) or to the agent's version (redo).
 * Only when the file on disk is still exactly what the other side recorded (by hash): otherwise the
 * person (or a build, or a later task) changed it, and that is a conflict unless forced. A forced
 * overwrite first keeps what it replaces as a blob, so no one's bytes are ever lost.
 */
export async function revertFile(input: RevertInput): Promise<Outcome> {
  const { file, direction, force } = input;
  const expected = direction === 'undo' ? file.after : file.before;
  const target = direction === 'undo' ? file.before : file.after;
  if (target === null) {
    return {
      kind: 'conflict',
      reason: `Keel stopped before it recorded the agent's version of "${file.path}", so it cannot be re-applied.`,
      forceable: false,
      code: 'not_recorded',
      params: {},
    };
  }
  if (target.hash !== null && !(await input.blobs.has(target.hash))) {
    return {
      kind: 'conflict',
      reason: `Keel's saved copy of "${file.path}" is missing from ${input.blobs.blobs}, so it cannot be put back. Nothing was changed.`,
      forceable: false,
      code: 'copy_missing',
      params: { folder: input.blobs.blobs },
    };
  }

  const located = await locate(input.workspace, file.path);
  if (!located.ok) return { kind: 'conflict', reason: located.reason, forceable: false, code: located.code, params: located.params };
  const disk = await onDisk(located.absolute);
  if (disk.kind === 'other') {
    return {
      kind: 'conflict',
      reason: `"${file.path}" is now ${disk.what}, not a file. It was left alone.`,
      forceable: false,
      code: 'not_a_file',
      params: { type: disk.type },
    };
  }

  let forced = false;
  const later = input.history.laterTaskOn(input.taskId, file.path);
  const mismatch = later ? null : differs(disk, expected);
  if (later || mismatch) {
    if (!force) {
      if (later)
        return {
          kind: 'conflict',
          reason: laterTaskReason(file.path, later, direction),
          forceable: true,
          code: 'later_task',
          params: { task: shorten(later.title) },
        };
      const how = mismatch === 'unknown' || mismatch === 'deleted' || mismatch === 'created' ? mismatch : 'changed';
      return { kind: 'conflict', reason: changedReason(file.path, direction, how), forceable: true, code: `${how}_since`, params: {} };
    }
    forced = true;
  }

  if (sameAs(disk, target)) return { kind: 'done', forced: false, replaced: null };
  const replaced = forced && disk.kind === 'file' ? await input.blobs.keep(located.absolute) : null;
  await write(located.absolute, target, input.blobs);
  return { kind: 'done', forced, replaced };
}

/** How the disk differs from what Keel expects there, or null when it is exactly that. */
function differs(disk: OnDisk, expected: Snapshot | null): string | null {
  if (expected === null) return 'unknown';
  if (disk.kind === 'missing') return expected.hash === null ? null : 'deleted';
  if (disk.kind === 'file') return disk.hash === expected.hash ? null : expected.hash === null ? 'created' : 'changed';
  return 'changed';
}

function sameAs(disk: OnDisk, target: Snapshot): boolean {
  return target.hash === null ? disk.kind === 'missing' : disk.kind === 'file' && disk.hash === target.hash;
}

async function write(absolute: string, target: Snapshot, blobs: BlobStore): Promise<void> {
  if (target.hash === null) {
    await rm(absolute, { force: true });
    return;
  }
  const bytes = await blobs.read(target.hash);
  // The file may have been deleted with its folder since; the folder is inside the workspace (checked).
  await mkdir(path.dirname(absolute), { recursive: true });
  await atomicWriteFile(absolute, bytes, { mode: target.mode ?? undefined });
}

function changedReason(filePath: string, direction: Direction, how: string): string {
  const since = direction === 'undo' ? 'after the agent wrote it' : 'after its change was undone';
  const ask = direction === 'undo' ? 'Undo anyway to discard those changes' : 'Redo anyway to discard those changes';
  switch (how) {
    case 'unknown':
      return `Keel stopped before it recorded the agent's version of "${filePath}", so it cannot tell whether the file was changed since. ${ask}.`;
    case 'deleted':
      return `"${filePath}" was deleted ${since}. ${direction === 'undo' ? 'Undo anyway to bring back the version from before the task' : "Redo anyway to write the agent's version again"}.`;
    case 'created':
      return `"${filePath}" was created again ${since}. ${ask}.`;
    default:
      return `"${filePath}" was changed ${since} (by you or another program). ${ask}.`;
  }
}

function laterTaskReason(filePath: string, later: TaskHistory, direction: Direction): string {
  return (
    `A later task, "${shorten(later.title)}", also changed "${filePath}". Undo that task's change to this file first, ` +
    `or ${direction} anyway to overwrite it.`
  );
}

function shorten(title: string): string {
  const line = title.split('\n')[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
