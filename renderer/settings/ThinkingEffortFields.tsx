import { DEFAULT_EFFORT, ThinkingSettingSchema, type Effort, type ModelProfileView, type ThinkingSetting } from '../../common/modelCapabilities';
import type { SettingsView } from '../../common/settings';
import type { MessageKey } from '../i18n/messages';
import { useI18n } from '../i18n/I18nProvider';
import { EFFORT_LABELS } from '../status/EffortControl';
import { Field } from './Field';
import { SourceTag } from './SourceTag';

const THINKING_CHOICES: Record<ThinkingSetting, { label: MessageKey; description: MessageKey }> = {
  auto: { label: 'settings.thinking.auto', description: 'settings.thinking.auto.description' },
  on: { label: 'settings.thinking.on', description: 'settings.thinking.on.description' },
  off: { label: 'settings.thinking.off', description: 'settings.thinking.off.description' },
};

interface Props {
  id: string;
  view: SettingsView;
  /** The saved model's profile: its effort levels from the endpoint's catalogue; null until main answered. */
  profile: ModelProfileView | null;
  thinking: ThinkingSetting;
  /** '' is "not set": the default applies. */
  effort: Effort | '';
  onThinking(value: ThinkingSetting): void;
  onEffort(value: Effort | ''): void;
}

/**
 * The settings' thinking (automatic or off; "also where the endpoint does not say" only while it is
 * the value, set in the file) and effort (only the levels the model lists; no control for a model
 * that lists none). KEEL_THINKING / KEEL_EFFORT, when set, win and the field is read-only.
 */
export function ThinkingEffortFields({ id, view, profile, thinking, effort, onThinking, onEffort }: Props) {
  const { t } = useI18n();
  const thinkingFromEnv = view.environmentOverrides.includes('thinking');
  const effortFromEnv = view.environmentOverrides.includes('effort');
  const choices = ThinkingSettingSchema.options.filter((choice) => choice !== 'on' || thinking === 'on' || view.thinking === 'on');
  const levels = profile?.effort.levels ?? [];
  // A saved level this model does not list stays choosable (it is what is saved), said as such;
  // a model that lists none gets no control (nothing is sent), the saved level kept for another.
  const unlisted = effort !== '' && !levels.includes(effort) ? effort : null;
  const model = profile?.model ?? view.model;
  return (
    <>
      <fieldset className="choice-group" disabled={thinkingFromEnv} aria-describedby={`${id}-thinking-note`}>
        <legend className="field-label">
          {t('settings.thinking')} <SourceTag source={view.sources.thinking} />
        </legend>
        <p className="field-note" id={`${id}-thinking-note`}>
          {t(thinkingFromEnv ? 'settings.env.thinking' : 'settings.thinking.note')}
        </p>
        {choices.map((choice) => (
          <label key={choice} className="choice">
            <input type="radio" name={`${id}-thinking`} value={choice} checked={thinking === choice} onChange={() => onThinking(choice)} />
            <span className="choice-text">
              <span className="choice-label">{t(THINKING_CHOICES[choice].label)}</span>
              <span className="choice-description">{t(THINKING_CHOICES[choice].description)}</span>
            </span>
          </label>
        ))}
      </fieldset>

      {levels.length === 0 ? (
        <div className="field" data-testid="effort-none">
          <div className="field-label-row">
            <span className="field-label">{t('settings.effort')}</span>
            <SourceTag source={view.sources.effort} />
          </div>
          <p className="field-note">{t(effortFromEnv ? 'settings.env.effort' : 'settings.effort.none', { model })}</p>
        </div>
      ) : (
        <Field
          label={t('settings.effort')}
          htmlFor={`${id}-effort`}
          source={view.sources.effort}
          note={t(effortFromEnv ? 'settings.env.effort' : 'settings.effort.note', { model })}
          noteId={`${id}-effort-note`}
        >
          <select
            id={`${id}-effort`}
            className="text-input"
            value={effort}
            disabled={effortFromEnv}
            aria-describedby={`${id}-effort-note`}
            onChange={(event) => {
              const value = event.target.value;
              onEffort(value === '' ? '' : ([...levels, unlisted].find((level) => level === value) ?? ''));
            }}
          >
            <option value="">{t('settings.effort.default', { level: t(EFFORT_LABELS[DEFAULT_EFFORT]) })}</option>
            {levels.map((level) => (
              <option key={level} value={level}>
                {t(EFFORT_LABELS[level])}
              </option>
            ))}
            {unlisted ? <option value={unlisted}>{t('settings.effort.notListed', { level: t(EFFORT_LABELS[unlisted]) })}</option> : null}
          </select>
        </Field>
      )}
    </>
  );
}
