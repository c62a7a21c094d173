import type { ValueSource } from '../../common/modelCapabilities';
import type { SettingSource } from '../../common/settings';
import { useI18n } from '../i18n/I18nProvider';

/** Where a value comes from (default, settings file, environment, the endpoint's catalogue…), beside the value. */
export function SourceTag({ source }: { source: SettingSource | ValueSource }) {
  const { t } = useI18n();
  const name = t(`source.${source}`);
  return (
    <span className="source-tag" data-source={source} title={t('source.label', { source: name })}>
      {name}
    </span>
  );
}
