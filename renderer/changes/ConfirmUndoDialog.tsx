import type { FileChange } from '../../common/contract';
import { ConfirmActions } from '../ui/ConfirmActions';
import { Dialog } from '../ui/Dialog';
import { useI18n } from '../i18n/I18nProvider';

interface Props {
  /** One file's undo, or a whole task's. */
  scope: 'task' | 'file';
  taskTitle: string;
  files: FileChange[];
  onCancel(): void;
  /** Resolves when main has answered. */
  onConfirm(): Promise<void>;
}

/** Asks before files are put back, naming each one and what happens to it. Cancel has the focus. */
export function ConfirmUndoDialog({ scope, taskTitle, files, onCancel, onConfirm }: Props) {
  const { t } = useI18n();
  return (
    <Dialog
      role="alertdialog"
      labelledBy="changes-confirm-title"
      describedBy="changes-confirm-body"
      onClose={onCancel}
      className="dialog-small changes-confirm"
    >
      <div className="dialog-body">
        <h2 id="changes-confirm-title" className="dialog-title">
          {t(scope === 'task' ? 'changes.confirm.titleTask' : 'changes.confirm.titleFile')}
        </h2>
        <div id="changes-confirm-body" className="dialog-text">
          <p>{t(files.length === 1 ? 'changes.confirm.bodyOne' : 'changes.confirm.body', { title: taskTitle })}</p>
          <ul className="changes-confirm-files">
            {files.map((file) => (
              <li key={file.path}>
                <span className="mono">{file.path}</span>
                {file.kind === 'created' ? <span className="changes-confirm-what"> — {t('changes.confirm.created')}</span> : null}
                {file.kind === 'deleted' ? <span className="changes-confirm-what"> — {t('changes.confirm.deleted')}</span> : null}
              </li>
            ))}
          </ul>
          <p>{t('changes.confirm.note')}</p>
        </div>
      </div>
      <ConfirmActions
        confirmLabel={t(scope === 'task' ? 'changes.confirm.confirmTask' : 'changes.confirm.confirmFile')}
        onCancel={onCancel}
        onConfirm={onConfirm}
      />
    </Dialog>
  );
}
