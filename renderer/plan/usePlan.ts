import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { PlanSnapshot, ProposedPlanItem } from '../../common/contract';
import type { PlanOverride } from '../../common/plan/overrides';
import type { PlanItem } from '../../common/plan/types';
import { isPlanConflict, isPlanInvalid } from '../../common/planEditErrors';
import { api } from '../api';
import { openPlan } from './windowOpenPlan';
import { aboutTheChangedStep, placeProblems, type PlacedProblems, type Proposal } from './proposals';

export interface BoardErrors extends PlacedProblems {
  /** The plan changed before the edit arrived: the board now shows the current plan. */
  conflict: string | null;
}

export const noErrors: BoardErrors = { byItem: {}, add: [], list: [], conflict: null };

const NO_OVERRIDES: PlanOverride[] = [];

/** What the person did: an edit turns the stored items into the whole proposed list. */
export type Operation = (items: readonly PlanItem[]) => Proposal;

export interface PlanState {
  /** The STORED plan, as main last reported it; null until it has answered. */
  snapshot: PlanSnapshot | null;
  errors: BoardErrors;
  /**
   * Sends `operation` applied to `base` (the snapshot the person saw) with its version. While an
   * earlier edit of this board is still on its way, the operation waits and applies to the plan
   * that edit stored. Resolves true when main accepted it (or there was nothing to change).
   */
  edit(base: PlanSnapshot, operation: Operation, madeBy: 'add' | 'item'): Promise<boolean>;
  /** Where the agent's latest plan undid the person's edit, until they put it back or dismiss it. */
  overrides: PlanOverride[];
  dismissOverride(override: PlanOverride | 'all'): void;
}

/**
 * The board's view of the plan. It never applies an edit locally: it renders what main stored,
 * from the answer to an edit or from the `plan.changed` event, whichever comes first.
 */
export function usePlan(sessionId: string): PlanState {
  // What the window already heard of this session's plan, drawn at once (main's answer follows).
  const [snapshot, setSnapshot] = useState<PlanSnapshot | null>(() => openPlan.peek(sessionId));
  const [errors, setErrors] = useState<BoardErrors>(noErrors);
  const [overrides, setOverrides] = useState<PlanOverride[]>(() => openPlan.peek(sessionId)?.overrides ?? NO_OVERRIDES);
  const latest = useRef<PlanSnapshot | null>(snapshot);
  const previousEdit = useRef<Promise<PlanSnapshot | null> | null>(null);

  const show = useCallback((next: PlanSnapshot, force = false) => {
    if (!force && latest.current !== null && next.version <= latest.current.version) return;
    const newer = latest.current !== null && next.version > latest.current.version;
    latest.current = next;
    // A new stored version is rendered at once, in the task that brought it, not a task later.
    flushSync(() => {
      setSnapshot(next);
      // A refusal was about the plan as it stood: once it changes, the refusal no longer applies (16.6).
      if (newer && !force) setErrors(noErrors);
      if (next.overrides?.length) setOverrides(next.overrides);
    });
  }, []);

  useEffect(() => {
    let live = true;
    const unsubscribe = api.on('plan.changed', (next) => show(next));
    // Read after subscribing: what arrived before the listener is in it, what comes later reaches the listener.
    const known = openPlan.peek(sessionId);
    latest.current = known;
    setSnapshot(known);
    setErrors(noErrors);
    setOverrides(known?.overrides ?? NO_OVERRIDES);
    void openPlan.request().then((result) => {
      if (live && result.ok) show(result.value);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [sessionId, show]);

  const send = useCallback(
    async (from: PlanSnapshot, items: ProposedPlanItem[], madeBy: 'add' | 'item'): Promise<PlanSnapshot | null> => {
      const result = await api.request('plan.edit', { baseVersion: from.version, items });
      if (result.ok) {
        show(result.value);
        setErrors(noErrors);
        return result.value;
      }
      const error = result.error;
      if (isPlanConflict(error)) {
        show(error.details.current, true);
        setErrors({ ...noErrors, conflict: error.message });
      } else if (isPlanInvalid(error)) {
        setErrors({ ...placeProblems(items, aboutTheChangedStep(error.details.problems, items, from.items), madeBy), conflict: null });
      } else {
        const placed = placeProblems(items, [{ index: null, message: error.message }], madeBy);
        setErrors({ ...placed, conflict: null });
      }
      return null;
    },
    [show],
  );

  const edit = useCallback(
    (base: PlanSnapshot, operation: Operation, madeBy: 'add' | 'item'): Promise<boolean> => {
      // The person acts: an earlier refusal is answered by what they do now.
      setErrors(noErrors);
      const before = previousEdit.current;
      const run = async (): Promise<PlanSnapshot | null> => {
        let from = base;
        if (before) {
          const stored = await before;
          if (stored === null) return null; // the earlier edit was refused: the person sees why first
          if (stored.version > from.version) from = stored;
        }
        const items = operation(from.items);
        return items === null ? from : send(from, items, madeBy);
      };
      const current = run();
      previousEdit.current = current;
      void current.finally(() => {
        if (previousEdit.current === current) previousEdit.current = null;
      });
      return current.then((stored) => stored !== null);
    },
    [send],
  );

  const dismissOverride = useCallback((override: PlanOverride | 'all') => {
    setOverrides((current) => (override === 'all' ? [] : current.filter((o) => o !== override)));
  }, []);

  return { snapshot, errors, edit, overrides, dismissOverride };
}
