import { PLAN_STATUSES, type PlanStatus } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import type { MessageKey } from '../i18n/messages';

export const STATUS_LABELS: Record<PlanStatus, MessageKey> = {
  pending: 'plan.status.pending',
  in_progress: 'plan.status.in_progress',
  completed: 'plan.status.completed',
};

interface Props {
  status: PlanStatus;
  content: string;
  onChange(status: PlanStatus): void;
}

/**
 * The item's status as a word (the row shows its marker), and the control that changes it.
 * Controlled by the STORED status: until main accepts a change, it keeps showing the stored one.
 */
export function StatusSelect({ status, content, onChange }: Props) {
  const { t } = useI18n();
  return (
    <span className={`status-pill status-${status}`}>
      <select
        className="status-select"
        aria-label={t('plan.status.label', { content })}
        value={status}
        data-part="status"
        onChange={(event) => onChange(event.target.value as PlanStatus)}
      >
        {PLAN_STATUSES.map((value) => (
          <option key={value} value={value}>
            {t(STATUS_LABELS[value])}
          </option>
        ))}
      </select>
    </span>
  );
}
