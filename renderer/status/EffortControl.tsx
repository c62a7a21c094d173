import { useId } from 'react';
import type { Effort, ModelProfileView } from '../../common/modelCapabilities';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';

export const EFFORT_LABELS: Record<Effort, MessageKey> = {
  low: 'status.effort.low',
  medium: 'status.effort.medium',
  high: 'status.effort.high',
  xhigh: 'status.effort.xhigh',
  max: 'status.effort.max',
};

interface Props {
  profile: ModelProfileView | null;
  onChange(effort: Effort): Promise<boolean>;
}

/**
 * The session's effort, only the levels the model lists; nothing at all for a model without
 * effort (none is sent then). A native select: arrows, typing and the screen reader come with it.
 */
export function EffortControl({ profile, onChange }: Props) {
  const { t } = useI18n();
  const id = useId();
  const effort = profile?.effort;
  if (!effort || effort.levels.length === 0 || effort.value === null) return null;
  return (
    <span className="status-item status-effort" title={t('status.effort.title')}>
      <label htmlFor={id}>{t('status.effort.label')}</label>
      <select
        id={id}
        className="status-select"
        value={effort.value}
        onChange={(event) => {
          // One of the model's own levels (zod stays out of the window's first chunk).
          const picked = effort.levels.find((level) => level === event.target.value);
          if (picked) void onChange(picked);
        }}
      >
        {effort.levels.map((level) => (
          <option key={level} value={level}>
            {t(EFFORT_LABELS[level])}
          </option>
        ))}
      </select>
    </span>
  );
}
