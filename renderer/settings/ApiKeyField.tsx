import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { SettingsView } from '../../common/settings';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';

export type KeyStorageChoice = 'this_session' | 'unprotected';

const SOURCE_LABELS: Record<SettingsView['apiKey']['source'], MessageKey> = {
  environment: 'settings.key.source.environment',
  secure_storage: 'settings.key.source.secure_storage',
  settings_file: 'settings.key.source.settings_file',
  this_session: 'settings.key.source.this_session',
  none: 'settings.key.source.none',
};

const STORAGE_NOTES: Record<SettingsView['apiKey']['storage'], MessageKey> = {
  secure: 'settings.key.storage.secure',
  plain_file: 'settings.key.storage.plain_file',
  unprotected: 'settings.key.storage.unprotected',
};

interface Props {
  view: SettingsView;
  /** A NEW key being typed; the stored one is never sent to the window. */
  value: string;
  storage: KeyStorageChoice;
  onChange(value: string): void;
  onStorage(value: KeyStorageChoice): void;
  onForget(): Promise<void>;
  error: ReactNode;
  describedBy: string | undefined;
  /** The dialog was opened to connect a model: the key is where the person starts. */
  autoFocus?: boolean;
}

/**
 * The API key: what is set (masked) and where it comes from, and a password field for a new one.
 * Where the OS has no secret store the person chooses: this session only, or stored unprotected.
 * A key from the environment wins, so the field is then read-only and says why.
 */
export function ApiKeyField({ view, value, storage, onChange, onStorage, onForget, error, describedBy, autoFocus = false }: Props) {
  const { t } = useI18n();
  const id = useId();
  const [forgetting, setForgetting] = useState(false);
  const key = view.apiKey;
  const fromEnvironment = view.environmentOverrides.includes('apiKey');
  const forgettable = key.source === 'settings_file' || key.source === 'secure_storage' || key.source === 'this_session';
  const noteId = `${id}-note`;
  const input = useRef<HTMLInputElement>(null);
  // After the dialog's own first focus, which runs before this.
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);

  return (
    <div className="field api-key-field">
      <label className="field-label" htmlFor={`${id}-key`}>
        {t('settings.key.label')}
      </label>
      <div className="key-current" id={`${id}-current`}>
        {key.set ? <code className="key-masked">{key.masked}</code> : null}
        <span className={`key-source source-${key.source}`}>{t(SOURCE_LABELS[key.source])}</span>
        {forgettable && !fromEnvironment ? (
          <button
            type="button"
            className="button button-ghost button-small key-forget"
            disabled={forgetting}
            onClick={() => {
              setForgetting(true);
              void onForget().finally(() => setForgetting(false));
            }}
          >
            {t('settings.key.forget')}
          </button>
        ) : null}
      </div>
      <input
        ref={input}
        id={`${id}-key`}
        className="text-input mono"
        type="password"
        value={value}
        readOnly={fromEnvironment}
        placeholder={fromEnvironment ? '' : key.set ? t('settings.key.placeholderReplace') : t('settings.key.placeholderNew')}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-current`, noteId, describedBy].filter(Boolean).join(' ')}
      />
      {error}
      <p className="field-note" id={noteId}>
        {fromEnvironment ? t('settings.env.apiKey') : t(STORAGE_NOTES[key.storage])}
      </p>
      {key.storage === 'unprotected' && !fromEnvironment ? (
        <fieldset className="key-storage" aria-describedby={`${id}-warning`}>
          <legend className="field-label">{t('settings.key.storageChoice')}</legend>
          <p className="notice notice-warning" id={`${id}-warning`}>
            {t('settings.key.noSecretStore')}
            {key.storageWarning ? <span className="notice-detail">{key.storageWarning}</span> : null}
          </p>
          <label className="choice">
            <input type="radio" name={`${id}-storage`} checked={storage === 'this_session'} onChange={() => onStorage('this_session')} />
            <span className="choice-text">
              <span className="choice-label">{t('settings.key.thisSession')}</span>
              <span className="choice-description">{t('settings.key.thisSession.description')}</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name={`${id}-storage`} checked={storage === 'unprotected'} onChange={() => onStorage('unprotected')} />
            <span className="choice-text">
              <span className="choice-label">{t('settings.key.unprotected')}</span>
              <span className="choice-description">{t('settings.key.unprotected.description')}</span>
            </span>
          </label>
        </fieldset>
      ) : null}
    </div>
  );
}
