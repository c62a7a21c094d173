import { useRef, useState, type DragEvent } from 'react';
import type { PlanItem } from '../../common/plan/types';
import type { DropSide, RowDrag } from './PlanItemRow';
import { moveItemNextTo } from './proposals';

/**
 * Drag and drop of rows by their handle. While dragging, the row under the pointer shows where the
 * item would land; dropping asks `onMove` for the move. Nothing moves until main stores it.
 */
export function useDragReorder(items: readonly PlanItem[], onMove: (id: string, targetId: string, side: DropSide) => void) {
  const dragged = useRef<string | null>(null);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ id: string; side: DropSide } | null>(null);

  const sideOf = (event: DragEvent<HTMLElement>): DropSide => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? 'before' : 'after';
  };

  const end = () => {
    dragged.current = null;
    setDraggingId(null);
    setDrop(null);
  };

  return (item: PlanItem): RowDrag => ({
    dragging: draggingId === item.id,
    dropSide: drop?.id === item.id ? drop.side : null,
    onDragStart(event) {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', item.content);
      const row = event.currentTarget.closest('li');
      if (row) event.dataTransfer.setDragImage(row, 24, 18);
      dragged.current = item.id;
      setDraggingId(item.id);
    },
    onDragOver(event) {
      const moving = dragged.current;
      if (moving === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      const side = sideOf(event);
      // Only mark places where dropping would change the order.
      const next = moveItemNextTo(items, moving, item.id, side) === null ? null : { id: item.id, side };
      if (next?.id !== drop?.id || next?.side !== drop?.side) setDrop(next);
    },
    onDrop(event) {
      const moving = dragged.current;
      if (moving === null) return;
      event.preventDefault();
      const side = sideOf(event);
      end();
      onMove(moving, item.id, side);
    },
    onDragEnd: end,
  });
}
