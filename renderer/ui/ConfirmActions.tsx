import { useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';

interface Props {
  confirmLabel: string;
  onCancel(): void;
  /** Resolves when main has answered; the confirm button is disabled until then. */
  onConfirm(): Promise<unknown>;
}

/** The action row of a confirmation dialog: Cancel (which has the focus) and a danger button. */
export function ConfirmActions({ confirmLabel, onCancel, onConfirm }: Props) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel} data-autofocus>
        {t('common.cancel')}
      </button>
      <button
        type="button"
        className="button button-danger"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void onConfirm().finally(() => setBusy(false));
        }}
      >
        {confirmLabel}
      </button>
    </div>
  );
}
