import { useState } from 'react';
import { AlertIcon } from '../ui/icons';
import { useI18n } from '../i18n/I18nProvider';
import { plural } from '../i18n/plural';

interface Props {
  /** The person stopped the task (Stop or Esc), rather than the completion gate. */
  byPerson?: boolean;
  open: number;
  total: number;
  onContinue(): Promise<string | null>;
  onMarkDone(): Promise<boolean>;
}

/**
 * Said plainly when the completion gate stopped the task with steps still open, with the two ways
 * on: let the agent continue, or declare the plan done.
 */
export function StoppedBanner({ byPerson = false, open, total, onContinue, onMarkDone }: Props) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<string | null>) => {
    setBusy(true);
    setError(await action());
    setBusy(false);
  };

  return (
    <div className="stopped-banner" role="region" aria-labelledby="stopped-title">
      <div className="stopped-head">
        <AlertIcon />
        <h3 id="stopped-title">{t(byPerson ? 'plan.cancelled.title' : 'plan.stopped.title')}</h3>
      </div>
      <p className="stopped-text">
        {byPerson
          ? plural(t, open, 'plan.cancelled.text.one', 'plan.cancelled.text', { open, total })
          : plural(t, open, 'plan.stopped.text.one', 'plan.stopped.text', { open, total })}
      </p>
      <div className="stopped-actions">
        <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void run(onContinue)}>
          {t('plan.stopped.continue')}
        </button>
        <button
          type="button"
          className="button button-small"
          disabled={busy}
          onClick={() => void run(async () => ((await onMarkDone()) ? null : t('plan.stopped.markDoneFailed')))}
        >
          {t('plan.stopped.markDone')}
        </button>
      </div>
      {error ? (
        <p role="alert" className="error-message">
          {error}
        </p>
      ) : null}
    </div>
  );
}
