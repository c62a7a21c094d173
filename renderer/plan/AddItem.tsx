import { useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { PlusIcon } from '../ui/icons';
import { ErrorList } from './ErrorList';
import type { BoardProblem } from './proposals';

interface Props {
  /** Resolves true when main stored the new item. */
  onAdd(content: string): Promise<boolean>;
  errors: readonly BoardProblem[];
}

/** The row that adds a step at the end of the plan; Enter adds. */
export function AddItem({ onAdd, errors }: Props) {
  const { t } = useI18n();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);

  // Nothing to add until the step has words: the button says so instead of inviting a refusal.
  const empty = draft.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (empty || busy) return;
    setBusy(true);
    const stored = await onAdd(draft);
    setBusy(false);
    if (stored) setDraft('');
  };

  return (
    <form className="add-item" onSubmit={(event) => void submit(event)} aria-busy={busy}>
      <div className="add-row">
        <PlusIcon />
        <input
          className="add-input"
          aria-label={t('plan.add.label')}
          placeholder={t('plan.add.placeholder')}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck
        />
        <button type="submit" className="button button-primary button-small" disabled={empty || busy}>
          {t('plan.add.button')}
        </button>
      </div>
      <ErrorList problems={errors} className="add-errors" />
    </form>
  );
}
