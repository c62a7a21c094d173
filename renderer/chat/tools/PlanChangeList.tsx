import type { PlanChange } from '../../../common/plan/diff';
import { MAIN_OWNER, type PlanStatus } from '../../../common/plan/types';
import { useI18n, type Translate } from '../../i18n/I18nProvider';

const statusKey = { pending: 'chat.plan.pending', in_progress: 'chat.plan.inProgress', completed: 'chat.plan.completed' } as const;
export const statusName = (status: PlanStatus, t: Translate) => t(statusKey[status]);

interface Props {
  changes: readonly PlanChange[];
  label: string;
  /** The person made these (their edit on the board), not the agent: each line says so. */
  yours?: boolean;
}

/** What changed in the plan, one line each, in the person's language. */
export function PlanChangeList({ changes, label, yours = false }: Props) {
  const { t } = useI18n();
  return (
    <ul className={`plan-changes${yours ? ' is-yours' : ''}`} aria-label={label}>
      {changes.map((change, index) => (
        <li key={index} className={`plan-change change-${change.kind}`}>
          {yours ? <span className="plan-change-who">{t('chat.plan.you')}</span> : null}
          {changeText(change, t)}
        </li>
      ))}
    </ul>
  );
}

export function changeText(change: PlanChange, t: Translate): string {
  switch (change.kind) {
    case 'added':
      return t('chat.plan.added', { content: change.item.content });
    case 'removed':
      return t('chat.plan.removed', { content: change.item.content });
    case 'reworded':
      return t('chat.plan.reworded', { from: change.from, to: change.to });
    case 'moved':
      return t('chat.plan.moved', { content: change.item.content, to: change.to + 1 });
    case 'status':
      return t('chat.plan.status', { content: change.item.content, from: statusName(change.from, t), to: statusName(change.to, t) });
    case 'blocked_by': {
      const ids = (list: readonly string[]) => list.map((id) => `#${id}`).join(', ');
      const content = change.item.content;
      return [
        ...(change.added.length > 0 ? [t('chat.plan.waitsFor', { content, ids: ids(change.added) })] : []),
        ...(change.removed.length > 0 ? [t('chat.plan.waitsNoLonger', { content, ids: ids(change.removed) })] : []),
      ].join(' · ');
    }
    case 'owner':
      return t('chat.plan.owner', { content: change.item.content, owner: change.to === MAIN_OWNER ? t('chat.plan.mainAgent') : change.to });
  }
}
