import { useI18n } from '../i18n/I18nProvider';

/** "Step deleted · Undo", for a few seconds after a delete; Undo re-adds it through a normal edit. */
export function DeletedToast({ content, onUndo }: { content: string; onUndo(): void }) {
  const { t } = useI18n();
  return (
    <div className="deleted-toast" role="status">
      <span className="deleted-text">{t('plan.deleted.text', { content })}</span>
      <button type="button" className="button button-small" onClick={onUndo}>
        {t('plan.deleted.undo')}
      </button>
    </div>
  );
}
