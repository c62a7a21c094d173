import { ConfirmActions } from '../ui/ConfirmActions';
import { Dialog } from '../ui/Dialog';
import { useI18n } from '../i18n/I18nProvider';

interface Props {
  title: string;
  trashFolder: string | null;
  onCancel(): void;
  /** Resolves when main has answered. */
  onConfirm(): Promise<boolean>;
}

/** Asks before a session is deleted, and says where its transcript goes and what can no longer be undone. Cancel has the focus. */
export function DeleteSessionDialog({ title, trashFolder, onCancel, onConfirm }: Props) {
  const { t } = useI18n();
  return (
    <Dialog role="alertdialog" labelledBy="delete-session-title" describedBy="delete-session-body" onClose={onCancel} className="dialog-small">
      <div className="dialog-body">
        <h2 id="delete-session-title" className="dialog-title">
          {t('sessions.deleteDialog.title')}
        </h2>
        <div id="delete-session-body" className="dialog-text">
          <p>{t('sessions.deleteDialog.body', { title })}</p>
          <p>{trashFolder ? t('sessions.deleteDialog.trashAt', { folder: trashFolder }) : t('sessions.deleteDialog.trash')}</p>
          <p>{t('sessions.deleteDialog.changes')}</p>
        </div>
      </div>
      <ConfirmActions confirmLabel={t('sessions.deleteDialog.confirm')} onCancel={onCancel} onConfirm={onConfirm} />
    </Dialog>
  );
}
