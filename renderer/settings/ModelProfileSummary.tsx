import type { ModelProfileView } from '../../common/modelCapabilities';
import { useI18n } from '../i18n/I18nProvider';
import { EFFORT_LABELS } from '../status/EffortControl';
import { SourceTag } from './SourceTag';

/**
 * What the agent runs with for the saved model: window, max tokens, thinking, web search and effort, each
 * with where it comes from (the endpoint's catalogue, a setting, the environment, a default).
 */
export function ModelProfileSummary({ profile }: { profile: ModelProfileView }) {
  const { t, language } = useI18n();
  const number = new Intl.NumberFormat(language);
  const { effort } = profile;
  const rows = [
    {
      key: 'contextWindow',
      label: t('profile.contextWindow'),
      value: t('profile.tokens', { count: number.format(profile.contextWindow.value) }),
      source: profile.contextWindow.source,
    },
    {
      key: 'maxTokens',
      label: t('profile.maxTokens'),
      value: t('profile.tokens', { count: number.format(profile.maxTokens.value) }),
      source: profile.maxTokens.source,
    },
    { key: 'thinking', label: t('profile.thinking'), value: t(`profile.thinking.${profile.thinking.value}`), source: profile.thinking.source },
    {
      key: 'webSearch',
      label: t('profile.webSearch'),
      value: t(profile.webSearch.value ? 'profile.webSearch.on' : 'profile.webSearch.off'),
      source: profile.webSearch.source,
    },
    {
      key: 'effort',
      label: t('profile.effort'),
      value:
        effort.value === null
          ? t('profile.effort.none')
          : t('profile.effort.levels', { value: t(EFFORT_LABELS[effort.value]), levels: effort.levels.map((level) => t(EFFORT_LABELS[level])).join(', ') }),
      source: effort.source,
    },
  ] as const;
  return (
    <div className="model-profile" aria-label={t('profile.title')} role="group">
      <p className="field-label">{t('profile.title')}</p>
      <dl className="profile-list">
        {rows.map((row) => (
          <div key={row.key} className="profile-row" data-value={row.key}>
            <dt>{row.label}</dt>
            <dd>
              <span className="profile-value">{row.value}</span> <SourceTag source={row.source} />
            </dd>
          </div>
        ))}
      </dl>
      {profile.warning ? (
        <p className="field-note profile-warning" role="note">
          {profile.warning}
        </p>
      ) : null}
    </div>
  );
}
