import { existsSync, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes, type ChangeActionResult, type TaskChanges } from '../../common/contract';
import { fail, ok, type Result } from '../../common/result';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import { isInside, toRelative } from '../tools/files/fileAccess';
import { BlobStore } from './blobStore';
import { changedNet, ChangeHistory, type FileHistory } from './changeHistory';
import { JsonLinesWriter } from '../platform/jsonLines';
import { INDEX_FORMAT, readIndex, type ChangeRecord, type Snapshot } from './changeIndex';
import { ChangeLister } from './changeList';
import type { ChangeRecorder } from './recorder';
import { revertFile, type Direction } from './revert';

export interface ChangeTrackerOptions {
  dataDir: string;
  sessionId: string;
  /** Real path of the workspace (as the session holds it). */
  workspace: string;
  log?: (message: string) => void;
}

export interface ChangeActionInput {
  taskId: string;
  path?: string;
  force?: boolean;
}

/** A file's bytes before the task first touched it, copied in the hook, hashed after the call. */
type PendingBefore = { staged: string | null; mode: number | null };

/** Files one tool call is changing, by workspace-relative path; `before` only on a task's first touch. */
type Touched = Map<string, { absolute: string; before?: PendingBefore }>;

interface RunningTask {
  taskId: string;
  title: string;
  at: string;
  /** Whether its `task` record is in the index yet (written with its first file change). */
  written: boolean;
  /** Files whose prior bytes could not be kept: not tracked for the rest of the task. */
  lost: Set<string>;
}

/**
 * What the agent changed in one session's files, and undo/redo of it. Storage, under
 * `<dataDir>/changes/<sessionId>/`: `blobs/<sha256>` holds file contents, `index.jsonl` is an
 * append-only log (see changeIndex.ts) that is folded back into the same state on restart.
 *
 * Only files the agent's file tools touch are recorded (through the tools' beforeFileChange hook);
 * a command run with bash changes files Keel does not see, and the person's repository is never
 * asked (no git).
 */
export class ChangeTracker implements ChangeRecorder {
  private readonly history = new ChangeHistory();
  private readonly index: JsonLinesWriter<ChangeRecord>;
  private readonly blobs: BlobStore;
  private readonly lister: ChangeLister;
  /** What was skipped while loading the index, for the person to see. */
  readonly warnings: string[] = [];
  private task: RunningTask | null = null;
  private touched: Touched = new Map();
  /** Index writes and file restores happen one at a time, in order. */
  private serial: Promise<unknown> = Promise.resolve();
  private readonly changed = new Emitter<[]>();

  constructor(private readonly options: ChangeTrackerOptions) {
    const folder = path.join(options.dataDir, 'changes', options.sessionId);
    this.blobs = new BlobStore(folder);
    const indexFile = path.join(folder, 'index.jsonl');
    const isNew = !existsSync(indexFile);
    const { records, warnings } = readIndex(indexFile);
    this.warnings.push(...warnings);
    for (const record of records) {
      const warning = this.history.apply(record);
      if (warning) this.warnings.push(`${indexFile}: ${warning}`);
    }
    this.index = new JsonLinesWriter<ChangeRecord>(indexFile);
    if (isNew) {
      this.index.append({ type: 'index', format: INDEX_FORMAT, sessionId: options.sessionId, workspace: options.workspace, at: now() });
    }
    this.lister = new ChangeLister(this.history, this.blobs);
  }

  /** Closes the index file when the session is left; a record after that opens it again. */
  close(): void {
    this.index.close();
  }

  /** Called after files were recorded, undone or redone (for the `changes.changed` event). */
  onChange(listener: () => void): Disposable {
    return this.changed.on(listener);
  }

  taskStarted(taskId: string, title: string): void {
    for (const entry of this.touched.values()) if (entry.before?.staged) this.blobs.discard(entry.before.staged);
    this.touched.clear();
    this.task = { taskId, title, at: now(), written: false, lost: new Set() };
  }

  taskEnded(taskId: string): void {
    const task = this.task;
    if (task?.taskId !== taskId) return;
    this.task = null;
    if (!task.written) return;
    // Only for a person reading the index: losing it loses nothing, so a failure is just logged.
    this.inOrder(async () => this.record({ type: 'task_end', taskId, at: now() })).catch((error: unknown) =>
      this.options.log?.(`warning: Keel could not note the end of task ${taskId} in its change index (${(error as Error).message}).`),
    );
  }

  beforeFileChange(absolutePath: string): void {
    const task = this.task;
    if (!task || !isInside(this.options.workspace, absolutePath)) return;
    const relative = toRelative(this.options.workspace, absolutePath);
    if (relative === '.' || this.touched.has(relative) || task.lost.has(relative)) return;
    if (this.history.file(task.taskId, relative)) {
      // Touched earlier in this task: its prior bytes are kept already; only the new version is read back.
      this.touched.set(relative, { absolute: absolutePath });
      return;
    }
    try {
      this.touched.set(relative, { absolute: absolutePath, before: this.copyBefore(absolutePath) });
    } catch (error) {
      task.lost.add(relative);
      this.options.log?.(
        `warning: Keel could not keep a copy of ${relative} before the agent changed it (${(error as Error).message}); this change will not be listed and cannot be undone.`,
      );
    }
  }

  async afterToolCall(): Promise<void> {
    const task = this.task;
    if (this.touched.size === 0 || !task) return;
    const touched = this.touched;
    this.touched = new Map();
    await this.inOrder(() => this.recordAfter(task, touched)).catch((error: unknown) =>
      this.options.log?.(`warning: Keel could not record the agent's file changes (${(error as Error).message}).`),
    );
  }

  private async recordAfter(task: RunningTask, touched: Touched): Promise<void> {
    let recorded = false;
    for (const [relative, entry] of touched) {
      try {
        if (entry.before) await this.recordBefore(task, relative, entry.before);
        if (!this.history.file(task.taskId, relative)) continue;
        this.record({ type: 'after', taskId: task.taskId, path: relative, ...(await this.snapshot(entry.absolute)), at: now() });
        recorded = true;
      } catch (error) {
        if (entry.before?.staged) this.blobs.discard(entry.before.staged);
        // Its prior bytes are gone now: a later call of this task must not record the agent's bytes as "before".
        if (!this.history.file(task.taskId, relative)) task.lost.add(relative);
        this.options.log?.(`warning: Keel could not record the agent's change to ${relative} (${(error as Error).message}); it may not be undoable.`);
      }
    }
    if (recorded) this.notify();
  }

  list(): Promise<TaskChanges[]> {
    return this.lister.list();
  }

  undo(input: ChangeActionInput): Promise<Result<ChangeActionResult>> {
    return this.inOrder(() => this.act('undo', input));
  }

  redo(input: ChangeActionInput): Promise<Result<ChangeActionResult>> {
    return this.inOrder(() => this.act('redo', input));
  }

  private async act(direction: Direction, input: ChangeActionInput): Promise<Result<ChangeActionResult>> {
    const task = this.history.tasks.get(input.taskId);
    if (!task) {
      return fail(
        ErrorCodes.badRequest,
        `No file changes are recorded for task ${input.taskId} in this session. Refresh the Changes view: it may show another session.`,
      );
    }
    if (this.task?.taskId === input.taskId) {
      return fail(ErrorCodes.taskRunning, `That task is still running. Stop it, or wait for it to finish, before you ${direction} its changes.`);
    }
    let files: FileHistory[];
    if (input.path !== undefined) {
      const file = task.files.get(input.path);
      if (!file || !changedNet(file)) {
        return fail(ErrorCodes.badRequest, `The task "${task.title}" did not change "${input.path}". Refresh the Changes view and pick a file it lists.`);
      }
      files = [file];
    } else {
      files = [...task.files.values()].filter(changedNet);
    }

    const result: ChangeActionResult = { done: [], conflicts: [] };
    // A file already in the wanted state is left as it is: a second click does nothing.
    const from = direction === 'undo' ? 'applied' : 'undone';
    for (const file of files.filter((f) => f.state === from)) {
      try {
        const outcome = await revertFile({
          workspace: this.options.workspace,
          blobs: this.blobs,
          history: this.history,
          taskId: task.taskId,
          file,
          direction,
          force: input.force === true,
        });
        if (outcome.kind === 'conflict') {
          result.conflicts.push({ path: file.path, reason: outcome.reason, code: outcome.code, params: outcome.params });
          continue;
        }
        this.record({
          type: direction,
          taskId: task.taskId,
          path: file.path,
          forced: outcome.forced,
          ...(outcome.replaced ? { replaced: outcome.replaced } : {}),
          at: now(),
        });
        result.done.push(file.path);
      } catch (error) {
        result.conflicts.push({
          path: file.path,
          reason: `Keel could not ${direction} "${file.path}": ${(error as Error).message}. The file was left as it was; check that it is writable and not locked by another program.`,
          code: 'write_failed',
          params: { message: (error as Error).message },
        });
      }
    }
    if (result.done.length > 0) this.notify();
    return ok(result);
  }

  /** Synchronous: the tool writes right after this returns. */
  private copyBefore(absolutePath: string): PendingBefore {
    let info;
    try {
      info = statSync(absolutePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { staged: null, mode: null };
      throw error;
    }
    if (!info.isFile()) throw new Error('it is not a regular file');
    return { staged: this.blobs.stageSync(absolutePath), mode: info.mode & 0o7777 };
  }

  private async recordBefore(task: RunningTask, relative: string, before: PendingBefore): Promise<void> {
    const hash = before.staged === null ? null : await this.blobs.commit(before.staged);
    if (!task.written) {
      this.record({ type: 'task', taskId: task.taskId, title: task.title, at: task.at });
      task.written = true;
    }
    this.record({ type: 'before', taskId: task.taskId, path: relative, hash, mode: before.mode, at: now() });
  }

  /** The file as the tool call left it, read back from disk. */
  private async snapshot(absolutePath: string): Promise<Snapshot> {
    let info;
    try {
      info = await lstat(absolutePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hash: null, mode: null };
      throw error;
    }
    if (!info.isFile()) throw new Error('it is no longer a regular file');
    return { hash: await this.blobs.keep(absolutePath), mode: info.mode & 0o7777 };
  }

  /** The index line first, then the state: what is in memory is always what a restart would rebuild. */
  private record(record: ChangeRecord): void {
    this.index.append(record);
    const warning = this.history.apply(record);
    if (warning) this.options.log?.(`warning: ${warning}`);
  }

  private inOrder<T>(work: () => Promise<T>): Promise<T> {
    const next = this.serial.then(work);
    this.serial = next.catch(() => undefined);
    return next;
  }

  private notify(): void {
    this.changed.fire();
  }
}

function now(): string {
  return new Date().toISOString();
}
