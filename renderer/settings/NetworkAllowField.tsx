import type { ReactNode } from 'react';
import type { SettingsView } from '../../common/settings';
import { useI18n } from '../i18n/I18nProvider';
import { SourceTag } from './SourceTag';

interface Props {
  id: string;
  view: SettingsView;
  value: string;
  onChange(value: string): void;
  invalid: boolean;
  error: ReactNode;
  describedBy(note: string): string | undefined;
}

/** The entries as typed: one per line (commas and spaces also part them), empty lines dropped. */
export function hostsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The settings file's `network.allow`, one host a line. Main checks every entry (the same check
 * the network policy uses) and refuses the save naming the ones that are not hosts; the hosts
 * KEEL_NETWORK_ALLOW adds are shown beside, not editable here.
 */
export function NetworkAllowField({ id, view, value, onChange, invalid, error, describedBy }: Props) {
  const { t } = useI18n();
  const fromEnvironment = view.networkAllowFromEnvironment;
  return (
    <div className="field">
      <div className="field-label-row">
        <label className="field-label" htmlFor={`${id}-networkAllow`}>
          {t('network.label')}
        </label>
        <SourceTag source={view.sources.networkAllow} />
      </div>
      <textarea
        id={`${id}-networkAllow`}
        className="text-input mono network-allow"
        rows={3}
        value={value}
        placeholder={'docs.example.com\n10.0.0.5'}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy(`${id}-networkAllow-note`)}
        spellCheck={false}
        autoComplete="off"
      />
      {error}
      <p className="field-note" id={`${id}-networkAllow-note`}>
        {t('network.note')}
        {fromEnvironment.length > 0 ? (
          <>
            {' '}
            <span className="network-env">{t('network.fromEnvironment', { hosts: fromEnvironment.join(', ') })}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
