import { useI18n } from '../i18n/I18nProvider';

/**
 * "Step deleted · Undo", for a few seconds after a delete; Undo re-adds it through a normal edit.
 * While the pointer is over it or focus is in it, `onHold(true)`: a person reaching for Undo, or
 * reading with a screen reader, must not have it taken away mid-reach.
 */
export function DeletedToast({ content, onUndo, onHold }: { content: string; onUndo(): void; onHold(held: boolean): void }) {
  const { t } = useI18n();
  return (
    <div
      className="deleted-toast"
      role="status"
      onPointerEnter={() => onHold(true)}
      onPointerLeave={() => onHold(false)}
      onFocus={() => onHold(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onHold(false);
      }}
    >
      <span className="deleted-text">{t('plan.deleted.text', { content })}</span>
      <button type="button" className="button button-small" onClick={onUndo}>
        {t('plan.deleted.undo')}
      </button>
    </div>
  );
}
