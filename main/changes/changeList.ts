import type { FileChange, TaskChanges } from '../../common/contract';
import type { BlobStore } from './blobStore';
import { changedNet, kindOf, type ChangeHistory, type FileHistory } from './changeHistory';
import { describeDiff, tooLargeForDiff } from './fileDiff';

/** Diffs never change for a pair of hashes; bounded so a long session does not hold them all. */
const MAX_CACHED_DIFFS = 500;

/**
 * The Changes view's model: tasks in the order they ran (oldest first), each with the files it
 * left different from how it found them. A file written and then put back by the same task, or
 * created and deleted again, changed nothing and is not listed.
 */
export class ChangeLister {
  private readonly diffs = new Map<string, string>();

  constructor(
    private readonly history: ChangeHistory,
    private readonly blobs: BlobStore,
  ) {}

  async list(): Promise<TaskChanges[]> {
    const tasks: TaskChanges[] = [];
    for (const task of [...this.history.tasks.values()]) {
      const files: FileChange[] = [];
      for (const file of [...task.files.values()]) {
        if (!changedNet(file)) continue;
        files.push({ path: file.path, kind: kindOf(file), diff: await this.diffOf(file), state: file.state });
      }
      if (files.length > 0) tasks.push({ taskId: task.taskId, title: task.title, at: task.at, files });
    }
    return tasks;
  }

  private async diffOf(file: FileHistory): Promise<string> {
    if (file.after === null) return "Keel stopped before it recorded the agent's version of this file, so no diff can be shown.";
    const key = `${file.path}\0${file.before.hash}\0${file.after.hash}`;
    const cached = this.diffs.get(key);
    if (cached !== undefined) return cached;
    let diff: string;
    try {
      diff = await this.computeDiff(file.path, file.before.hash, file.after.hash);
    } catch (error) {
      // Not cached: the blob may come back (a restored data folder).
      return `Keel cannot read its saved copy of this file (${(error as Error).message}), so no diff can be shown.`;
    }
    if (this.diffs.size >= MAX_CACHED_DIFFS) this.diffs.clear();
    this.diffs.set(key, diff);
    return diff;
  }

  private async computeDiff(filePath: string, beforeHash: string | null, afterHash: string | null): Promise<string> {
    const beforeSize = beforeHash === null ? null : await this.blobs.size(beforeHash);
    const afterSize = afterHash === null ? null : await this.blobs.size(afterHash);
    const tooLarge = tooLargeForDiff(beforeSize, afterSize);
    if (tooLarge) return tooLarge;
    const before = beforeHash === null ? null : await this.blobs.read(beforeHash);
    const after = afterHash === null ? null : await this.blobs.read(afterHash);
    return describeDiff(filePath, before, after);
  }
}
