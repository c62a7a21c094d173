import { useMemo } from 'react';
import { diffPlans, type PlanChange } from '../../../common/plan/diff';
import { MAIN_OWNER, type PlanStatus } from '../../../common/plan/types';
import { useI18n, type Translate } from '../../i18n/I18nProvider';
import { StatusIcon } from '../../ui/icons';
import { plural } from '../plural';
import type { ToolItem } from './toolItem';
import { todoItems } from './toolInfo';

const statusKey = { pending: 'chat.plan.pending', in_progress: 'chat.plan.inProgress', completed: 'chat.plan.completed' } as const;
const statusName = (status: PlanStatus, t: Translate) => t(statusKey[status]);

const countKey = {
  added: 'chat.plan.count.added',
  removed: 'chat.plan.count.removed',
  reworded: 'chat.plan.count.reworded',
  moved: 'chat.plan.count.moved',
} as const;

/** "4 steps, 1 done", and what else changed since the agent's previous plan: "· 1 added, 1 removed". */
export function todoSummary(input: unknown, t: Translate, previous?: unknown): string {
  const items = todoItems(input);
  if (!items) return '';
  if (items.length === 0) return t('chat.plan.cleared');
  const done = items.filter((item) => item.status === 'completed').length;
  const summary = plural(t, items.length, 'chat.plan.summary.one', 'chat.plan.summary', { done });
  if (previous === undefined) return summary;
  const changes = diffPlans(todoItems(previous) ?? [], items);
  const counts = (Object.keys(countKey) as (keyof typeof countKey)[])
    .map((kind) => ({ kind, count: changes.filter((change) => change.kind === kind).length }))
    .filter(({ count }) => count > 0)
    .map(({ kind, count }) => t(countKey[kind], { count }));
  return counts.length === 0 ? summary : t('chat.plan.summaryChanges', { summary, changes: counts.join(', ') });
}

/** A `todo` call: what changed since the agent's previous plan, then the plan it wrote. */
export function TodoBody({ item, previous, redo = false }: { item: ToolItem; previous: unknown; redo?: boolean }) {
  const { t } = useI18n();
  const items = useMemo(() => todoItems(item.input) ?? [], [item.input]);
  const changes = useMemo(() => (previous === undefined ? null : diffPlans(todoItems(previous) ?? [], items)), [previous, items]);
  const result = item.result;
  if (redo) {
    // Not the board's plan and not a failure: say what happened; what the model read stays one click away.
    return (
      <div className="todo-card todo-redo">
        <p className="tool-note">{t('chat.plan.redo')}</p>
        <details className="todo-redo-details">
          <summary>{t('chat.plan.redoSent')}</summary>
          <ul className="todo-items todo-not-applied" aria-label={t('chat.plan.redoSent')}>
            {items.map((step, index) => (
              <li key={`${step.id}-${index}`} className={`todo-item is-${step.status}`}>
                <StatusIcon status={step.status} />
                <span className="visually-hidden">{statusName(step.status, t)}: </span>
                <span className="todo-text">{step.content}</span>
              </li>
            ))}
          </ul>
        </details>
        <details className="todo-redo-details">
          <summary>{t('chat.plan.redoDetails')}</summary>
          <pre className="notice-text">{result?.content}</pre>
        </details>
      </div>
    );
  }
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
