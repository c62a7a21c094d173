import { useI18n } from '../i18n/I18nProvider';

/** What an empty board says: what the plan is for and who writes it. */
export function EmptyPlan() {
  const { t } = useI18n();
  return (
    <div className="empty-plan">
      <p className="empty-title">{t('plan.empty.title')}</p>
      <p>{t('plan.empty.text')}</p>
    </div>
  );
}
