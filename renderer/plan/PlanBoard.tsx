import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PlanSnapshot } from '../../common/contract';
import { unfinishedItems } from '../../common/plan/render';
import { canContinue, settledOutcome } from '../../common/plan/sessionState';
import type { PlanItem } from '../../common/plan/types';
import { api } from '../api';
import { useI18n } from '../i18n/I18nProvider';
import { AddItem } from './AddItem';
import type { BoardProblem } from './proposals';
import { EmptyPlan } from './EmptyPlan';
import { ErrorList } from './ErrorList';
import { PlanItemRow } from './PlanItemRow';
import { PlanProgress } from './PlanProgress';
import { DeletedToast } from './DeletedToast';
import { OverrideNotice } from './OverrideNotice';
import { hasDependencies, readiness } from '../../common/plan/graph';
import {
  addDependency,
  addItem,
  completeAll,
  deleteItem,
  moveItemBy,
  moveItemNextTo,
  removeDependency,
  restoreDeleted,
  rewordItem,
  setItemStatus,
  startInstead,
  undoOverride,
} from './proposals';
import { StoppedBanner } from './StoppedBanner';
import { useDragReorder } from './useDragReorder';
import { usePlan, type Operation } from './usePlan';
import { helpersByItem, isolationOf } from '../helpers/helperState';
import { useHelpers } from '../helpers/useHelpers';
import { useRowHandlers } from './useRowHandlers';
import { useTaskOutcome } from './useTaskOutcome';
import { UNDO_OFFER_MS } from './undoOffer';

const HINT_ID = 'plan-keys-hint';

/** One empty list for every row without a problem, so an unchanged row stays unchanged. */
const NO_PROBLEMS: readonly BoardProblem[] = [];

/** Where focus goes once the stored plan has been rendered: a control of an item, or the add field. */
type FocusTarget = { id: string; part: string } | { add: true };

/**
 * The plan board: the STORED plan of the open folder, and every edit a person can make to it.
 * Each edit sends the whole proposed list against the version it was made on; the board shows
 * what main stored, and the validator's words where a refusal concerns an item.
 */
export function PlanBoard({ sessionId }: { sessionId: string }) {
  const { t, language } = useI18n();
  const { snapshot, errors, edit, overrides, dismissOverride } = usePlan(sessionId);
  const { outcome, running, openAtEnd } = useTaskOutcome(sessionId);
  const { store: helperStore, helpers } = useHelpers(sessionId);
  const helperOf = useMemo(() => helpersByItem(helpers.helpers), [helpers.helpers]);
  const [deleted, setDeleted] = useState<{ item: PlanItem; index: number; dependents: string[] } | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [pickingId, setPickingId] = useState<string | null>(null);
  const focusNext = useRef<FocusTarget | null>(null);
  const list = useRef<HTMLElement>(null);
  const items = snapshot?.items ?? [];

  const act = (base: PlanSnapshot | null, operation: Operation, madeBy: 'add' | 'item' = 'item') => {
    if (base === null) return Promise.resolve(false);
    return edit(base, operation, madeBy).then((stored) => {
      if (!stored) focusNext.current = null;
      return stored;
    });
  };

  const move = (id: string, delta: number, part: string) => {
    focusNext.current = { id, part };
    void act(snapshot, (current) => moveItemBy(current, id, delta));
  };

  const remove = (id: string) => {
    const index = items.findIndex((item) => item.id === id);
    const neighbour = items[index + 1] ?? items[index - 1];
    focusNext.current = neighbour ? { id: neighbour.id, part: 'text' } : { add: true };
    const item = items[index];
    const dependents = items.filter((other) => other.blockedBy?.includes(id)).map((other) => other.id);
    void act(snapshot, (current) => deleteItem(current, id)).then((stored) => {
      if (stored && item) setDeleted({ item, index, dependents });
    });
  };

  // The undo offer goes after a few seconds (counted again once the pointer or focus leaves it), or with the session.
  const [undoHeld, setUndoHeld] = useState(false);
  useEffect(() => {
    if (!deleted) {
      setUndoHeld(false);
      return;
    }
    if (undoHeld) return;
    const timer = setTimeout(() => setDeleted(null), UNDO_OFFER_MS);
    return () => clearTimeout(timer);
  }, [deleted, undoHeld]);
  useEffect(() => setDeleted(null), [sessionId]);
  // Once the agent has written the plan again, re-adding the old step would be a guess: the offer goes.
  const agentVersion = snapshot?.source === 'agent' ? snapshot.version : null;
  useEffect(() => {
    if (agentVersion !== null) setDeleted(null);
  }, [agentVersion]);

  const undoDelete = () => {
    const gone = deleted;
    setDeleted(null);
    if (!gone) return;
    focusNext.current = { id: gone.item.id, part: 'text' };
    void act(snapshot, (current) => restoreDeleted(current, gone.item, gone.index, gone.dependents));
  };

  const drag = useDragReorder(items, (id, targetId, side) => {
    void act(snapshot, (current) => moveItemNextTo(current, id, targetId, side));
  });

  const handlersFor = useRowHandlers({
    onStartEdit: (id) => setEditingId(id),
    onStopEdit: (id) => setEditingId((current) => (current === id ? null : current)),
    onReword: (id, content) => act(snapshot, (current) => rewordItem(current, id, content)),
    onStatus: (id, status) => void act(snapshot, (current) => setItemStatus(current, id, status)),
    onMove: move,
    onDelete: remove,
    onStartInstead: (id, otherId) => void act(snapshot, (current) => startInstead(current, id, otherId)),
    onDependency: (id, on, waits) => void act(snapshot, (current) => (waits ? addDependency : removeDependency)(current, id, on)),
    onPicker: (id, open) => setPickingId((current) => (open ? id : current === id ? null : current)),
  });

  // A move re-inserts the row, which drops its focus: put it back on the same control.
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target || !list.current) return;
    let element: HTMLElement | null;
    if ('add' in target) element = list.current.querySelector('.add-input');
    else {
      const row = list.current.querySelector(`[data-item-id="${CSS.escape(target.id)}"]`);
      if (!row) return; // not stored yet
      const part = row.querySelector<HTMLButtonElement>(`[data-part="${target.part}"]`);
      element = part && !part.disabled ? part : row.querySelector('[data-part="text"]');
    }
    focusNext.current = null;
    element?.focus();
  }, [snapshot]);

  if (snapshot === null) {
    return <section className="plan-board is-loading" aria-label={t('plan.title')} aria-busy="true" />;
  }

  const open = unfinishedItems(items).length;
  const graph = hasDependencies(items);
  // One derivation with the session list and status bar: the outcome settled against the plan now.
  const settled = running ? null : settledOutcome(outcome, open, openAtEnd);
  const showStopped = !running && canContinue(settled, open);
  const interruptedId = !running && settled === 'cancelled' ? items.find((item) => item.status === 'in_progress')?.id : undefined;

  return (
    <section className="plan-board" aria-labelledby="plan-title" data-plan-version={snapshot.version} ref={list}>
      <header className="board-head">
        <h2 id="plan-title">{t('plan.title')}</h2>
        {snapshot.source ? (
          <span
            className="board-source"
            title={snapshot.at ? t('plan.versionTitle', { version: snapshot.version, date: new Date(snapshot.at).toLocaleString(language) }) : undefined}
          >
            {t(snapshot.source === 'agent' ? 'plan.lastChange.agent' : 'plan.lastChange.you')}
            <span className="version-chip">{t('plan.versionChip', { version: snapshot.version })}</span>
          </span>
        ) : null}
      </header>

      {items.length > 0 ? <PlanProgress items={items} /> : null}

      {showStopped ? (
        <StoppedBanner
          byPerson={settled === 'cancelled'}
          open={open}
          total={items.length}
          onContinue={async () => {
            const result = await api.request('task.send', { text: t('plan.stopped.continueMessage') });
            return result.ok ? null : result.error.message;
          }}
          onMarkDone={() => act(snapshot, completeAll)}
        />
      ) : null}

      {errors.conflict ? (
        <div role="alert" className="notice notice-warning">
          {errors.conflict}
        </div>
      ) : null}
      <OverrideNotice
        overrides={overrides}
        className="board-overrides"
        items={items}
        onUndo={(override) => act(snapshot, (current) => undoOverride(current, override))}
        onDismiss={() => dismissOverride('all')}
      />
      <ErrorList problems={errors.list} className="board-errors" />
      {isolationOf(helpers.helpers) === 'in_place_not_git' ? <p className="notice helpers-not-git">{t('helpers.notGit')}</p> : null}

      {items.length === 0 ? (
        <EmptyPlan />
      ) : (
        <ol className="plan-list" aria-label={t('plan.steps')}>
          {items.map((item, index) => (
            <PlanItemRow
              key={item.id}
              item={item}
              waitsFor={(item.blockedBy ?? []).flatMap((id) => items.filter((other) => other.id === id))}
              readiness={readiness(item, items)}
              graph={graph}
              first={index === 0}
              last={index === items.length - 1}
              errors={errors.byItem[item.id] ?? NO_PROBLEMS}
              interrupted={item.id === interruptedId}
              editing={editingId === item.id}
              hintId={HINT_ID}
              dragging={drag.draggingId === item.id}
              dropSide={drag.drop?.id === item.id ? drag.drop.side : null}
              pickerItems={pickingId === item.id ? items : undefined}
              handlers={handlersFor(item.id)}
              drag={drag.handlersFor(item.id)}
              helper={helperOf.get(item.id)}
              helperStore={helperStore}
            />
          ))}
        </ol>
      )}

      {deleted ? <DeletedToast content={deleted.item.content} onUndo={undoDelete} onHold={setUndoHeld} /> : null}
      <AddItem errors={errors.add} onAdd={(content) => act(snapshot, (current) => addItem(current, content), 'add')} />
      <p className="board-hint" id={HINT_ID}>
        {t('plan.hint')}
      </p>
    </section>
  );
}
