import { useCallback, useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import type { PlanItem } from '../../common/plan/types';
import type { DragHandlers, DropSide } from './PlanItemRow';
import { moveItemNextTo } from './proposals';

/**
 * Drag and drop of rows by their handle. While dragging, the row under the pointer shows where the
 * item would land; dropping asks `onMove` for the move. Nothing moves until main stores it.
 * Each row's handlers are made once and read the plan as now shown, so rows that did not change
 * need not render again.
 */
export function useDragReorder(items: readonly PlanItem[], onMove: (id: string, targetId: string, side: DropSide) => void) {
  const dragged = useRef<string | null>(null);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ id: string; side: DropSide } | null>(null);
  const latest = useRef({ items, onMove, drop });
  useLayoutEffect(() => {
    latest.current = { items, onMove, drop };
  });
  const made = useRef(new Map<string, DragHandlers>());

  const handlersFor = useCallback((id: string): DragHandlers => {
    const known = made.current.get(id);
    if (known) return known;
    const sideOf = (event: DragEvent<HTMLElement>): DropSide => {
      const box = event.currentTarget.getBoundingClientRect();
      return event.clientY < box.top + box.height / 2 ? 'before' : 'after';
    };
    const end = () => {
      dragged.current = null;
      setDraggingId(null);
      setDrop(null);
    };
    const handlers: DragHandlers = {
      onDragStart(event) {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', latest.current.items.find((item) => item.id === id)?.content ?? '');
        const row = event.currentTarget.closest('li');
        if (row) event.dataTransfer.setDragImage(row, 24, 18);
        dragged.current = id;
        setDraggingId(id);
      },
      onDragOver(event) {
        const moving = dragged.current;
        if (moving === null) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        const side = sideOf(event);
        const { items: now, drop: shown } = latest.current;
        // Only mark places where dropping would change the order.
        const next = moveItemNextTo(now, moving, id, side) === null ? null : { id, side };
        if (next?.id !== shown?.id || next?.side !== shown?.side) setDrop(next);
      },
      onDrop(event) {
        const moving = dragged.current;
        if (moving === null) return;
        event.preventDefault();
        const side = sideOf(event);
        end();
        latest.current.onMove(moving, id, side);
      },
      onDragEnd: end,
    };
    made.current.set(id, handlers);
    return handlers;
  }, []);

  return { draggingId, drop, handlersFor };
}
