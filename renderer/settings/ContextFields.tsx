import type { ReactNode } from 'react';
import { COMPACT_AT_MAX, COMPACT_AT_MIN, CONTEXT_WINDOW_MAX, CONTEXT_WINDOW_MIN } from '../../common/contextWindow';
import type { SettingsView } from '../../common/settings';
import { useI18n } from '../i18n/I18nProvider';
import { percentOf } from './contextDraft';
import { Field } from './Field';

interface Props {
  id: string;
  view: SettingsView;
  contextWindow: string;
  compactAt: string;
  onChange(field: 'contextWindow' | 'compactAt', value: string): void;
  invalid(field: 'contextWindow' | 'compactAt'): boolean;
  errorFor(field: 'contextWindow' | 'compactAt'): ReactNode;
  describedBy(field: 'contextWindow' | 'compactAt', note: string): string | undefined;
  /** The window the endpoint's catalogue lists for the saved model: what an empty field means then. */
  listedWindow?: number | undefined;
}

/**
 * The model's context window and where Keel makes room in it. Typed as text, not as number
 * inputs: a number input hides what was typed when it is not a number, and "200,000" is how
 * people write it. Empty shows the default and keeps it.
 */
export function ContextFields({ id, view, contextWindow, compactAt, onChange, invalid, errorFor, describedBy, listedWindow }: Props) {
  const { t, language } = useI18n();
  const number = new Intl.NumberFormat(language);
  const windowOverridden = view.environmentOverrides.includes('contextWindow');
  const defaults = { ...view.contextDefaults, ...(listedWindow ? { contextWindow: listedWindow } : {}) };
  const windowNote = listedWindow ? 'profile.windowNote' : 'settings.contextWindow.note';
  return (
    <div className="field-grid">
      <Field
        label={t('settings.contextWindow')}
        htmlFor={`${id}-contextWindow`}
        source={view.sources.contextWindow}
        note={windowOverridden ? t('settings.env.contextWindow') : t(windowNote, { default: number.format(defaults.contextWindow) })}
        noteId={`${id}-contextWindow-note`}
      >
        <div className="input-unit">
          <input
            id={`${id}-contextWindow`}
            className="text-input"
            inputMode="numeric"
            placeholder={number.format(defaults.contextWindow)}
            value={contextWindow}
            readOnly={windowOverridden}
            onChange={(event) => onChange('contextWindow', event.target.value)}
            aria-invalid={invalid('contextWindow') ? true : undefined}
            aria-describedby={describedBy('contextWindow', `${id}-contextWindow-note`)}
            spellCheck={false}
            autoComplete="off"
          />
          <span className="input-unit-label" aria-hidden="true">
            {t('settings.contextWindow.unit')}
          </span>
        </div>
        {errorFor('contextWindow')}
      </Field>
      <Field
        label={t('settings.compactAt')}
        htmlFor={`${id}-compactAt`}
        source={view.sources.compactAt}
        note={t('settings.compactAt.note', { default: percentOf(defaults.compactAt) })}
        noteId={`${id}-compactAt-note`}
      >
        <div className="input-unit">
          <input
            id={`${id}-compactAt`}
            className="text-input"
            inputMode="decimal"
            placeholder={percentOf(defaults.compactAt)}
            value={compactAt}
            onChange={(event) => onChange('compactAt', event.target.value)}
            aria-invalid={invalid('compactAt') ? true : undefined}
            aria-describedby={describedBy('compactAt', `${id}-compactAt-note`)}
            spellCheck={false}
            autoComplete="off"
          />
          <span className="input-unit-label" aria-hidden="true">
            %
          </span>
        </div>
        {errorFor('compactAt')}
      </Field>
    </div>
  );
}

/** The ranges the contract accepts, as the refusal hints say them. */
export function contextHintParams(language: string): Record<'contextWindow' | 'compactAt', Record<string, string>> {
  const number = new Intl.NumberFormat(language);
  return {
    contextWindow: { min: number.format(CONTEXT_WINDOW_MIN), max: number.format(CONTEXT_WINDOW_MAX) },
    compactAt: { min: percentOf(COMPACT_AT_MIN), max: percentOf(COMPACT_AT_MAX) },
  };
}
