import type { PlanItem } from '../../common/plan/types';
import { useI18n } from '../i18n/I18nProvider';
import { StatusIcon } from '../ui/icons';
import { STATUS_LABELS } from './StatusSelect';

interface Props {
  item: PlanItem;
  /** The stored steps it waits for, in its blockedBy order. */
  waitsFor: readonly PlanItem[];
}

/**
 * What a step waits for, one line: "Blocked by" while any of it is unfinished, else "After"; each
 * step it waits for by its #id and status (its text in the tooltip and for screen readers).
 * Dependencies are changed in the step's picker.
 */
export function ItemDependencies({ item, waitsFor }: Props) {
  const { t } = useI18n();
  if (waitsFor.length === 0) return null;
  const blocked = item.status === 'pending' && waitsFor.some((other) => other.status !== 'completed');
  return (
    <div className={`item-deps${blocked ? ' is-blocked' : ''}`}>
      <span className="deps-label">{t(blocked ? 'plan.deps.blockedBy' : 'plan.deps.after')}</span>
      <ul className="dep-chips" aria-label={t('plan.deps.listLabel', { content: item.content })}>
        {waitsFor.map((other) => (
          <li key={other.id} className={`dep-chip is-${other.status}`} title={`#${other.id} ${other.content} · ${t(STATUS_LABELS[other.status])}`}>
            <StatusIcon status={other.status} />
            <span className="dep-id">#{other.id}</span>
            <span className="visually-hidden">
              {' '}
              {other.content}, {t(STATUS_LABELS[other.status])}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
