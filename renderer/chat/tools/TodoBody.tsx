import { useMemo } from 'react';
import { diffPlans, type PlanChange } from '../../../common/plan/diff';
import type { PlanStatus } from '../../../common/plan/types';
import { useI18n, type Translate } from '../../i18n/I18nProvider';
import { StatusIcon } from '../../ui/icons';
import { plural } from '../plural';
import type { ToolItem } from './ToolCard';
import { todoItems } from './toolInfo';

const statusKey = { pending: 'chat.plan.pending', in_progress: 'chat.plan.inProgress', completed: 'chat.plan.completed' } as const;
const statusName = (status: PlanStatus, t: Translate) => t(statusKey[status]);

/** "4 steps, 1 done" */
export function todoSummary(input: unknown, t: Translate): string {
  const items = todoItems(input);
  if (!items) return '';
  if (items.length === 0) return t('chat.plan.cleared');
  const done = items.filter((item) => item.status === 'completed').length;
  return plural(t, items.length, 'chat.plan.summary.one', 'chat.plan.summary', { done });
}

/** A `todo` call: what changed since the agent's previous plan, then the plan it wrote. */
export function TodoBody({ item, previous }: { item: ToolItem; previous: unknown }) {
  const { t } = useI18n();
  const items = useMemo(() => todoItems(item.input) ?? [], [item.input]);
  const changes = useMemo(() => (previous === undefined ? null : diffPlans(todoItems(previous) ?? [], items)), [previous, items]);
  const result = item.result;
  return (
    <div className="todo-card">
      {result?.isError && <p className="tool-error">{result.content}</p>}
      {changes === null ? (
        <p className="tool-note">{t('chat.plan.first')}</p>
      ) : changes.length === 0 ? (
        <p className="tool-note">{t('chat.plan.noChange')}</p>
      ) : (
        <ul className="plan-changes" aria-label={t('chat.plan.changes')}>
          {changes.map((change, index) => (
            <li key={index} className={`plan-change change-${change.kind}`}>
              {changeText(change, t)}
            </li>
          ))}
        </ul>
      )}
      <ul className="todo-items" aria-label={t('chat.plan.items')}>
        {items.map((step, index) => (
          <li key={`${step.id}-${index}`} className={`todo-item is-${step.status}`}>
            <StatusIcon status={step.status} />
            <span className="visually-hidden">{statusName(step.status, t)}: </span>
            <span className="todo-text">{step.status === 'in_progress' && step.activeForm ? step.activeForm : step.content}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function changeText(change: PlanChange, t: Translate): string {
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
  }
}
