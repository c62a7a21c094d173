import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeActionResult, FileChange, TaskChanges } from '../../common/contract';
import { ErrorCodes } from '../../common/errorCodes';
import { api } from '../api';
import { ChevronIcon } from '../ui/icons';
import { useI18n } from '../i18n/I18nProvider';
import { ConfirmUndoDialog } from './ConfirmUndoDialog';
import { conflictText } from './conflictText';
import { FileDiff, lineCounts } from './FileDiff';

type Action = 'undo' | 'redo';

interface Outcome {
  action: Action;
  /** Put back (undo) or re-applied (redo). */
  done: string[];
  /** Left alone: changed by the person since; waiting for their answer. */
  conflicts: ChangeActionResult['conflicts'];
  /** Conflicts the person answered "Keep my version". */
  kept: string[];
}

interface Props {
  task: TaskChanges;
  /** The list is stale (a task or file main does not know): read it again. */
  onStale(): void;
}

/** One task's changed files with their diffs, undo and redo, and the conflicts an action met. */
export function TaskCard({ task, onStale }: Props) {
  const { t, language } = useI18n();
  // A task begun with only a picture has no words to be named by.
  const title = task.title.trim() === '' ? t('common.pictureOnly') : task.title;
  const headingId = useId();
  const [confirming, setConfirming] = useState<{ scope: 'task' | 'file'; files: FileChange[]; path?: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const conflictsRef = useRef<HTMLDivElement>(null);
  const conflictCount = outcome?.conflicts.length ?? 0;

  // When an action meets conflicts, the question takes the focus: it is what the person must answer.
  useEffect(() => {
    if (conflictCount > 0) conflictsRef.current?.focus();
  }, [conflictCount]);

  const request = async (action: Action, path: string | undefined, force: boolean) => {
    setBusy(true);
    setError(null);
    const input = { taskId: task.taskId, ...(path === undefined ? {} : { path }), ...(force ? { force: true } : {}) };
    const result = await api.request(action === 'undo' ? 'changes.undo' : 'changes.redo', input);
    setBusy(false);
    if (result.ok) return result.value;
    const { code, message } = result.error;
    if (code === ErrorCodes.badRequest) {
      setError(t('changes.error.stale'));
      onStale();
    } else if (code === ErrorCodes.taskRunning) setError(t('changes.error.running'));
    else if (code === ErrorCodes.noWorkspace) setError(t('changes.error.noWorkspace'));
    else setError(message);
    return null;
  };

  const run = async (action: Action, path?: string) => {
    const value = await request(action, path, false);
    if (value) setOutcome({ action, done: value.done, conflicts: value.conflicts, kept: [] });
  };

  const overwrite = async (path: string) => {
    if (!outcome) return;
    const value = await request(outcome.action, path, true);
    if (!value) return;
    setOutcome((previous) =>
      previous
        ? {
            ...previous,
            done: [...previous.done.filter((done) => !value.done.includes(done)), ...value.done],
            conflicts: [...previous.conflicts.filter((conflict) => conflict.path !== path), ...value.conflicts],
          }
        : previous,
    );
  };

  const keep = (path: string) =>
    setOutcome((previous) =>
      previous ? { ...previous, conflicts: previous.conflicts.filter((conflict) => conflict.path !== path), kept: [...previous.kept, path] } : previous,
    );

  const applied = task.files.filter((file) => file.state === 'applied');
  const undone = task.files.filter((file) => file.state === 'undone');
  const date = new Date(task.at);
  const when = Number.isNaN(date.getTime()) ? task.at : date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
  // Undoing a file the agent created deletes it: say so, not "Restored".
  const createdPaths = new Set(task.files.filter((file) => file.kind === 'created').map((file) => file.path));
  const removed = outcome?.action === 'undo' ? outcome.done.filter((path) => createdPaths.has(path)) : [];
  const putBack = outcome ? outcome.done.filter((path) => !removed.includes(path)) : [];
  const doneKey = outcome?.action === 'redo' ? 'changes.done.redo' : 'changes.done.undo';

  return (
    <li className="changes-task" aria-labelledby={headingId}>
      <div className="changes-task-head">
        <div className="changes-task-what">
          <h3 id={headingId} className="changes-task-title" title={title}>
            <span className="visually-hidden">{t('changes.task.label')} </span>
            {title}
          </h3>
          <p className="changes-task-meta">
            <time dateTime={task.at}>{when}</time>
            <span aria-hidden="true"> · </span>
            {t(task.files.length === 1 ? 'changes.task.fileCountOne' : 'changes.task.fileCount', { count: task.files.length })}
          </p>
        </div>
        <div className="changes-task-actions">
          {undone.length > 0 ? (
            <button
              type="button"
              className="button button-small"
              disabled={busy}
              aria-label={t('changes.redoTaskLabel', { title })}
              onClick={() => void run('redo')}
            >
              {t('changes.redoTask')}
            </button>
          ) : null}
          {applied.length > 0 ? (
            <button
              type="button"
              className="button button-small"
              disabled={busy}
              aria-label={t('changes.undoTaskLabel', { title })}
              onClick={() => setConfirming({ scope: 'task', files: applied })}
            >
              {t('changes.undoTask')}
            </button>
          ) : null}
        </div>
      </div>

      {error ? (
        <p role="alert" className="error-message changes-error">
          {error}
        </p>
      ) : null}

      <div className="changes-outcome" role="status">
        {putBack.length > 0 ? <p className="changes-done">{t(doneKey, { files: putBack.join(', ') })}</p> : null}
        {removed.length > 0 ? (
          <p className="changes-done">{t(removed.length === 1 ? 'changes.done.removedOne' : 'changes.done.removed', { files: removed.join(', ') })}</p>
        ) : null}
        {outcome && outcome.kept.length > 0 ? <p className="changes-kept">{t('changes.kept', { files: outcome.kept.join(', ') })}</p> : null}
      </div>

      {outcome && outcome.conflicts.length > 0 ? (
        <div className="changes-conflicts" ref={conflictsRef} tabIndex={-1} role="group" aria-labelledby={`${headingId}-conflicts`}>
          <h4 id={`${headingId}-conflicts`} className="changes-conflicts-title">
            {t(outcome.action === 'undo' ? 'changes.conflicts.titleUndo' : 'changes.conflicts.titleRedo')}
          </h4>
          <p className="changes-conflicts-text">{t('changes.conflicts.text')}</p>
          <ul className="changes-conflict-list">
            {outcome.conflicts.map((conflict) => (
              <li key={conflict.path} className="changes-conflict">
                <div className="changes-conflict-what">
                  <span className="mono changes-path">{conflict.path}</span>
                  <span className="changes-conflict-reason">{conflictText(conflict, outcome.action, t)}</span>
                </div>
                <div className="changes-conflict-actions">
                  <button
                    type="button"
                    className="button button-small button-danger"
                    disabled={busy}
                    aria-label={t('changes.conflicts.overwriteLabel', { path: conflict.path })}
                    onClick={() => void overwrite(conflict.path)}
                  >
                    {t('changes.conflicts.overwrite')}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('changes.conflicts.keepLabel', { path: conflict.path })}
                    onClick={() => keep(conflict.path)}
                  >
                    {t('changes.conflicts.keep')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <ul className="changes-files">
        {task.files.map((file) => (
          <FileRow
            key={file.path}
            file={file}
            busy={busy}
            justDone={outcome?.done.includes(file.path) ? outcome.action : null}
            onUndo={() => setConfirming({ scope: 'file', files: [file], path: file.path })}
            onRedo={() => void run('redo', file.path)}
          />
        ))}
      </ul>

      {confirming ? (
        <ConfirmUndoDialog
          scope={confirming.scope}
          taskTitle={title}
          files={confirming.files}
          onCancel={() => setConfirming(null)}
          onConfirm={async () => {
            await run('undo', confirming.path);
            setConfirming(null);
          }}
        />
      ) : null}
    </li>
  );
}

interface FileRowProps {
  file: FileChange;
  busy: boolean;
  /** The last action put this file back (undo) or re-applied it (redo). */
  justDone: Action | null;
  onUndo(): void;
  onRedo(): void;
}

function FileRow({ file, busy, justDone, onUndo, onRedo }: FileRowProps) {
  const { t } = useI18n();
  const diffId = useId();
  const [open, setOpen] = useState(true);
  const counts = lineCounts(file.diff);
  return (
    <li className="changes-file" data-state={file.state} data-path={file.path}>
      <div className="changes-file-head">
        <button
          type="button"
          className="changes-file-toggle"
          aria-expanded={open}
          aria-controls={open ? diffId : undefined}
          aria-label={t('changes.toggleDiff', { path: file.path })}
          onClick={() => setOpen((value) => !value)}
        >
          <ChevronIcon open={open} />
          <span className="mono changes-path" title={file.path}>
            {file.path}
          </span>
        </button>
        <span className={`changes-chip changes-kind-${file.kind}`}>{t(`changes.kind.${file.kind}`)}</span>
        {counts ? (
          <span className="changes-counts" aria-label={t('changes.countsLabel', counts)}>
            <span className="changes-count-add">+{counts.added}</span> <span className="changes-count-del">−{counts.removed}</span>
          </span>
        ) : null}
        <span className="changes-file-spacer" />
        {justDone ? (
          <span className="changes-chip changes-just-done">
            {t(justDone === 'redo' ? 'changes.reapplied' : file.kind === 'created' ? 'changes.removed' : 'changes.restored')}
          </span>
        ) : null}
        <span className={`changes-chip changes-state-${file.state}`}>{t(`changes.state.${file.state}`)}</span>
        {file.state === 'applied' ? (
          <button type="button" className="button button-small" disabled={busy} aria-label={t('changes.undoFileLabel', { path: file.path })} onClick={onUndo}>
            {t('changes.undoFile')}
          </button>
        ) : (
          <button type="button" className="button button-small" disabled={busy} aria-label={t('changes.redoFileLabel', { path: file.path })} onClick={onRedo}>
            {t('changes.redoFile')}
          </button>
        )}
      </div>
      {open ? <FileDiff id={diffId} path={file.path} diff={file.diff} /> : null}
    </li>
  );
}
