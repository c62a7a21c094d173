import { useMemo } from 'react';
import { diffPlans, type PlanChange } from '../../../common/plan/diff';
import { useI18n, type Translate } from '../../i18n/I18nProvider';
import { StatusIcon } from '../../ui/icons';
import { plural } from '../../i18n/plural';
import type { ToolItem } from './toolItem';
import { todoItems } from './toolInfo';
import { PlanChangeList, statusName } from './PlanChangeList';

const countKey = {
  added: 'chat.plan.count.added',
  removed: 'chat.plan.count.removed',
  reworded: 'chat.plan.count.reworded',
  moved: 'chat.plan.count.moved',
} as const;

/** The agent's own change: against the version its call replaced when known, else its previous call. */
function agentChanges(item: ToolItem, previous: unknown): PlanChange[] | null {
  if (item.plan) return item.plan.before.length === 0 ? null : diffPlans(item.plan.before, item.plan.after);
  const items = todoItems(item.input) ?? [];
  return previous === undefined ? null : diffPlans(todoItems(previous) ?? [], items);
}

/** "4 steps, 1 done", and what else the agent changed: "· 1 added, 1 removed". */
export function todoSummary(item: ToolItem, t: Translate, previous?: unknown): string {
  const items = item.plan?.after ?? todoItems(item.input);
  if (!items) return '';
  if (items.length === 0) return t('chat.plan.cleared');
  const done = items.filter((step) => step.status === 'completed').length;
  const summary = plural(t, items.length, 'chat.plan.summary.one', 'chat.plan.summary', { done });
  const changes = agentChanges(item, previous);
  if (changes === null) return summary;
  const counts = (Object.keys(countKey) as (keyof typeof countKey)[])
    .map((kind) => ({ kind, count: changes.filter((change) => change.kind === kind).length }))
    .filter(({ count }) => count > 0)
    .map(({ kind, count }) => t(countKey[kind], { count }));
  return counts.length === 0 ? summary : t('chat.plan.summaryChanges', { summary, changes: counts.join(', ') });
}

/** A `todo` call: what changed since the agent's previous plan, then the plan it wrote. */
export function TodoBody({ item, previous, redo = false }: { item: ToolItem; previous: unknown; redo?: boolean }) {
  const { t } = useI18n();
  const items = useMemo(() => item.plan?.after ?? todoItems(item.input) ?? [], [item.plan, item.input]);
  const changes = useMemo(() => agentChanges(item, previous), [item, previous]);
  const yours = useMemo(() => (item.yours ? diffPlans(item.yours.before, item.yours.after) : []), [item.yours]);
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
      {yours.length > 0 ? <PlanChangeList changes={yours} label={t('chat.plan.yourChanges')} yours /> : null}
      {changes === null ? (
        <p className="tool-note">{t('chat.plan.first')}</p>
      ) : changes.length === 0 ? (
        <p className="tool-note">{t('chat.plan.noChange')}</p>
      ) : (
        <PlanChangeList changes={changes} label={yours.length > 0 ? t('chat.plan.agentChanges') : t('chat.plan.changes')} />
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
