import { useLayoutEffect, useRef, useState } from 'react';
import type { PlanSnapshot } from '../../common/contract';
import { AddItem } from './AddItem';
import { EmptyPlan } from './EmptyPlan';
import { ErrorList } from './ErrorList';
import { PlanItemRow } from './PlanItemRow';
import { PlanProgress } from './PlanProgress';
import { addItem, deleteItem, moveItemBy, moveItemNextTo, rewordItem, setItemStatus } from './proposals';
import { useDragReorder } from './useDragReorder';
import { usePlan, type Operation } from './usePlan';

const HINT_ID = 'plan-keys-hint';

/** Where focus goes once the stored plan has been rendered: a control of an item, or the add field. */
type FocusTarget = { id: string; part: string } | { add: true };

/**
 * The plan board: the STORED plan of the open folder, and every edit a person can make to it.
 * Each edit sends the whole proposed list against the version it was made on; the board shows
 * what main stored, and the validator's words where a refusal concerns an item.
 */
export function PlanBoard({ sessionId }: { sessionId: string }) {
  const { snapshot, errors, edit } = usePlan(sessionId);
  const [editingId, setEditingId] = useState<string | null>(null);
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
    void act(snapshot, (current) => deleteItem(current, id));
  };

  const dragFor = useDragReorder(items, (id, targetId, side) => {
    void act(snapshot, (current) => moveItemNextTo(current, id, targetId, side));
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
    return <section className="plan-board is-loading" aria-label="Plan" aria-busy="true" />;
  }

  return (
    <section className="plan-board" aria-labelledby="plan-title" data-plan-version={snapshot.version} ref={list}>
      <header className="board-head">
        <h2 id="plan-title">Plan</h2>
        {snapshot.source ? (
          <span className="board-source" title={snapshot.at ? `Version ${snapshot.version}, ${new Date(snapshot.at).toLocaleString()}` : undefined}>
            Last change: {snapshot.source === 'agent' ? 'agent' : 'you'}
            <span className="version-chip">v{snapshot.version}</span>
          </span>
        ) : null}
      </header>

      {items.length > 0 ? <PlanProgress items={items} /> : null}

      {errors.conflict ? (
        <div role="alert" className="notice notice-warning">
          {errors.conflict}
        </div>
      ) : null}
      <ErrorList messages={errors.list} className="board-errors" />

      {items.length === 0 ? (
        <EmptyPlan />
      ) : (
        <ol className="plan-list" aria-label="Plan steps">
          {items.map((item, index) => (
            <PlanItemRow
              key={item.id}
              item={item}
              first={index === 0}
              last={index === items.length - 1}
              errors={errors.byItem[item.id] ?? []}
              editing={editingId === item.id}
              hintId={HINT_ID}
              drag={dragFor(item)}
              onStartEdit={() => setEditingId(item.id)}
              onStopEdit={() => setEditingId((current) => (current === item.id ? null : current))}
              onReword={(content) => act(snapshot, (current) => rewordItem(current, item.id, content))}
              onStatus={(status) => void act(snapshot, (current) => setItemStatus(current, item.id, status))}
              onMove={(delta, part) => move(item.id, delta, part)}
              onDelete={() => remove(item.id)}
            />
          ))}
        </ol>
      )}

      <AddItem errors={errors.add} onAdd={(content) => act(snapshot, (current) => addItem(current, content), 'add')} />
      <p className="board-hint" id={HINT_ID}>
        Enter or F2 rewords a step · Alt+↑/↓ moves it · drag the handle to reorder
      </p>
    </section>
  );
}
