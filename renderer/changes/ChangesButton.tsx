import { useI18n } from '../i18n/I18nProvider';
import { CHANGES_PANEL_ID } from './changesPanelId';

function ChangesIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 16 16" fill="none" aria-hidden={true} focusable={false}>
      <path
        d="M4 2.5v6M1 5.5h6M9 12.5h6M10.5 2.5h2a1.5 1.5 0 0 1 1.5 1.5v4M5.5 13.5h-2A1.5 1.5 0 0 1 2 12v-1"
        stroke="currentColor"
        strokeWidth={1.4}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The header's "Changes" button: opens the panel; its badge counts the files still changed. */
export function ChangesButton({ count, open, onToggle }: { count: number; open: boolean; onToggle(): void }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className={`button changes-button${open ? ' changes-button-open' : ''}`}
      aria-expanded={open}
      aria-controls={open ? CHANGES_PANEL_ID : undefined}
      aria-label={count > 0 ? t(count === 1 ? 'changes.buttonLabelOne' : 'changes.buttonLabel', { count }) : t('changes.button')}
      onClick={onToggle}
    >
      <ChangesIcon />
      <span className="header-label">{t('changes.button')}</span>
      {/* The space keeps the visible text "Changes 1" a part of the name "Changes: 1 file…" (axe reads the badge too). */}
      {count > 0 ? ' ' : null}
      {count > 0 ? (
        <span className="changes-badge" aria-hidden="true">
          {count}
        </span>
      ) : null}
    </button>
  );
}
