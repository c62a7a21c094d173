import { WebSearchSettingSchema, type WebSearchSetting } from '../../common/modelCapabilities';
import type { SettingsView } from '../../common/settings';
import type { MessageKey } from '../i18n/messages';
import { useI18n } from '../i18n/I18nProvider';
import { SourceTag } from './SourceTag';

const CHOICES: Record<WebSearchSetting, { label: MessageKey; description: MessageKey }> = {
  auto: { label: 'settings.webSearch.auto', description: 'settings.webSearch.auto.description' },
  on: { label: 'settings.webSearch.on', description: 'settings.webSearch.on.description' },
  off: { label: 'settings.webSearch.off', description: 'settings.webSearch.off.description' },
};

interface Props {
  id: string;
  view: SettingsView;
  value: WebSearchSetting;
  onChange(value: WebSearchSetting): void;
}

/** Whether the model may use the API's own web search; KEEL_WEB_SEARCH, when set, wins and the choice is read-only. */
export function WebSearchField({ id, view, value, onChange }: Props) {
  const { t } = useI18n();
  const overridden = view.environmentOverrides.includes('webSearch');
  return (
    <fieldset className="choice-group" disabled={overridden} aria-describedby={`${id}-webSearch-note`}>
      <legend className="field-label">
        {t('settings.webSearch')} <SourceTag source={view.sources.webSearch} />
      </legend>
      <p className="field-note" id={`${id}-webSearch-note`}>
        {t(overridden ? 'settings.env.webSearch' : 'settings.webSearch.note')}
      </p>
      {WebSearchSettingSchema.options.map((choice) => (
        <label key={choice} className="choice">
          <input type="radio" name={`${id}-webSearch`} value={choice} checked={value === choice} onChange={() => onChange(choice)} />
          <span className="choice-text">
            <span className="choice-label">{t(CHOICES[choice].label)}</span>
            <span className="choice-description">{t(CHOICES[choice].description)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
