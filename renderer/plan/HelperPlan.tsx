import { useState } from 'react';
import { isPlanConflict, isPlanInvalid } from '../../common/planEditErrors';
import type { HelperInfo } from '../../common/helpers';
import type { HelperStore } from '../helpers/helperStore';
import { useI18n } from '../i18n/I18nProvider';
import { StatusIcon } from '../ui/icons';
import { ErrorList } from './ErrorList';
import { ItemText } from './ItemText';
import { aboutTheChangedStep, placeProblems, rewordItem, type BoardProblem } from './proposals';

interface Props {
  info: HelperInfo;
  store: HelperStore;
  /** Its loop still runs: the person may reword its steps. */
  editable: boolean;
  hintId: string;
}

interface Refusal {
  byItem: Record<string, BoardProblem[]>;
  list: BoardProblem[];
}

const noRefusal: Refusal = { byItem: {}, list: [] };

/**
 * A helper's own plan under its step. The person rewords a step as on the main plan; the edit goes
 * through the same validator (helper.editPlan, against the version shown) and is told to that
 * helper alone.
 */
export function HelperPlan({ info, store, editable, hintId }: Props) {
  const { t } = useI18n();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<Refusal>(noRefusal);
  const owner = info.id;

  const reword = async (id: string, content: string): Promise<boolean> => {
    setRefusal(noRefusal);
    const items = rewordItem(info.plan, id, content);
    if (items === null) return true;
    const result = await store.editPlan(owner, info.planVersion, items);
    if (result.ok) return true;
    const error = result.error;
    if (isPlanInvalid(error)) {
      const placed = placeProblems(items, aboutTheChangedStep(error.details.problems, items, info.plan), 'item');
      setRefusal({ byItem: placed.byItem, list: [...placed.list, ...placed.add] });
    } else {
      // A conflict: the helper changed its plan meanwhile, and helper.changed shows the new one.
      setRefusal({ byItem: {}, list: [{ message: error.message }] });
      if (isPlanConflict(error)) setEditingId(null);
    }
    return false;
  };

  if (info.plan.length === 0) return <p className="helper-plan-empty">{t('helpers.planEmpty')}</p>;
  return (
    <>
      <ErrorList problems={refusal.list} className="helper-errors" />
      <ol className="helper-plan" aria-label={t('helpers.plan', { owner })} data-plan-version={info.planVersion}>
        {info.plan.map((item) => (
          <li key={item.id} className={`helper-step is-${item.status}`} data-item-id={item.id} data-status={item.status}>
            <span className="item-marker">
              <StatusIcon status={item.status} />
            </span>
            <div className="helper-step-main">
              {editable ? (
                <ItemText
                  content={item.content}
                  label={t('helpers.reword', { content: item.content, owner })}
                  editing={editingId === item.id}
                  onStartEdit={() => setEditingId(item.id)}
                  onStopEdit={() => setEditingId((current) => (current === item.id ? null : current))}
                  onSave={(content) => reword(item.id, content)}
                  hintId={hintId}
                />
              ) : (
                <span className="helper-step-text">{item.content}</span>
              )}
              {/* An ended helper is doing nothing any more: its step in progress says no "…ing". */}
              {editable && item.status === 'in_progress' && item.activeForm ? <p className="active-form">{item.activeForm}…</p> : null}
              <ErrorList problems={refusal.byItem[item.id] ?? []} className="item-errors" />
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
