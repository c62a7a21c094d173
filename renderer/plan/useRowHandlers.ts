import { useCallback, useLayoutEffect, useRef } from 'react';
import type { PlanStatus } from '../../common/plan/types';

/** What a row may ask of the board, for its own step. */
export interface RowHandlers {
  onStartEdit(): void;
  onStopEdit(): void;
  onReword(content: string): Promise<boolean>;
  onStatus(status: PlanStatus): void;
  /** `part` is the control that had focus, so focus can follow the item. */
  onMove(delta: number, part: string): void;
  onDelete(): void;
  /** Sets the step in progress elsewhere (`otherId`) pending and starts this one, in one edit. */
  onStartInstead(otherId: string): void;
  /** The step waits for `on` from now on (`waits`), or no longer. */
  onDependency(on: string, waits: boolean): void;
  /** Opens or closes the step's dependency picker. */
  onPicker(open: boolean): void;
}

/** The board's actions, each for a step id. */
export type BoardActions = { [K in keyof RowHandlers]: (id: string, ...args: Parameters<RowHandlers[K]>) => ReturnType<RowHandlers[K]> };

/**
 * One handler object per step, made once: a row whose step did not change need not render again
 * (PlanItemRow is memoized). The handlers call the actions of the last rendered board, so an edit
 * is always made against the plan the person sees.
 */
export function useRowHandlers(actions: BoardActions): (id: string) => RowHandlers {
  const latest = useRef(actions);
  useLayoutEffect(() => {
    latest.current = actions;
  });
  const made = useRef(new Map<string, RowHandlers>());
  return useCallback((id: string) => {
    const known = made.current.get(id);
    if (known) return known;
    const handlers: RowHandlers = {
      onStartEdit: () => latest.current.onStartEdit(id),
      onStopEdit: () => latest.current.onStopEdit(id),
      onReword: (content) => latest.current.onReword(id, content),
      onStatus: (status) => latest.current.onStatus(id, status),
      onMove: (delta, part) => latest.current.onMove(id, delta, part),
      onDelete: () => latest.current.onDelete(id),
      onStartInstead: (otherId) => latest.current.onStartInstead(id, otherId),
      onDependency: (on, waits) => latest.current.onDependency(id, on, waits),
      onPicker: (open) => latest.current.onPicker(id, open),
    };
    made.current.set(id, handlers);
    return handlers;
  }, []);
}
