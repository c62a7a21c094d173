import type { PlanItem } from '../../common/plan/types';
import { planProgress } from '../../common/plan/render';
import { useI18n } from '../i18n/I18nProvider';

/** "k of n completed" and a bar that says the same to assistive technology. */
export function PlanProgress({ items }: { items: readonly PlanItem[] }) {
  const { t } = useI18n();
  const { completed, total } = planProgress(items);
  const label = t('plan.progress', { completed, total });
  const percent = total === 0 ? 0 : Math.round((completed / total) * 100);
  return (
    <div className="plan-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={t('plan.progressLabel')}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={completed}
        aria-valuetext={label}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-text">{label}</span>
    </div>
  );
}
