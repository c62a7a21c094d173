import type { ChangeRecord, Snapshot } from './changeIndex';

export interface FileHistory {
  path: string;
  before: Snapshot;
  /** The agent's last version; null while unknown (Keel stopped between the two records). */
  after: Snapshot | null;
  state: 'applied' | 'undone';
}

export interface TaskHistory {
  taskId: string;
  title: string;
  at: string;
  /** Insertion order is the order the task first touched each file. */
  files: Map<string, FileHistory>;
}

/**
 * What the index says, folded: per task, per file, the bytes before and after and whether the
 * person undid it. Pure (no I/O), so a restart rebuilds exactly the state the records describe.
 */
export class ChangeHistory {
  /** Insertion order is task order, which the "a later task changed it" rule relies on. */
  readonly tasks = new Map<string, TaskHistory>();

  /** Applies one record; returns a warning when it makes no sense (it is then ignored). */
  apply(record: ChangeRecord): string | null {
    switch (record.type) {
      case 'index':
      case 'task_end':
        return null;
      case 'task':
        if (!this.tasks.has(record.taskId)) this.tasks.set(record.taskId, { taskId: record.taskId, title: record.title, at: record.at, files: new Map() });
        return null;
      case 'before': {
        const task = this.tasks.get(record.taskId);
        if (!task) return `a file change of unknown task ${record.taskId} was skipped.`;
        // The first touch of a task is what undo goes back to; later ones are the agent's own versions.
        if (!task.files.has(record.path)) task.files.set(record.path, { path: record.path, before: snap(record), after: null, state: 'applied' });
        return null;
      }
      case 'after': {
        const file = this.tasks.get(record.taskId)?.files.get(record.path);
        if (!file) return `the agent's version of ${record.path} (task ${record.taskId}) has no earlier version recorded and was skipped.`;
        file.after = snap(record);
        file.state = 'applied';
        return null;
      }
      case 'undo':
      case 'redo': {
        const file = this.tasks.get(record.taskId)?.files.get(record.path);
        if (!file) return `an ${record.type} of ${record.path} (task ${record.taskId}) refers to no recorded change and was skipped.`;
        file.state = record.type === 'undo' ? 'undone' : 'applied';
        return null;
      }
    }
  }

  file(taskId: string, filePath: string): FileHistory | undefined {
    return this.tasks.get(taskId)?.files.get(filePath);
  }

  /**
   * The first task after `taskId` whose change to the file is in effect. Undoing or redoing an
   * older change under it would silently throw that later work away, so it is a conflict.
   */
  laterTaskOn(taskId: string, filePath: string): TaskHistory | undefined {
    let after = false;
    for (const task of this.tasks.values()) {
      if (task.taskId === taskId) {
        after = true;
        continue;
      }
      const file = task.files.get(filePath);
      if (after && file && file.state === 'applied' && changedNet(file)) return task;
    }
    return undefined;
  }
}

/** Whether the task left the file different from how it found it (a write of the same bytes is no change). */
export function changedNet(file: FileHistory): boolean {
  return file.after === null || file.after.hash !== file.before.hash;
}

export function kindOf(file: FileHistory): 'created' | 'edited' | 'deleted' {
  if (file.before.hash === null) return 'created';
  if (file.after !== null && file.after.hash === null) return 'deleted';
  return 'edited';
}

function snap(record: { hash: string | null; mode: number | null }): Snapshot {
  return { hash: record.hash, mode: record.mode };
}
