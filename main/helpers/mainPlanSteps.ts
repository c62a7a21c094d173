import type { PlanStatus } from '../../common/plan/types';
import { MAIN_OWNER } from '../../common/plan/types';
import type { PlanStore } from '../plan/store';

/**
 * Moves one step of the main plan for its helper (through the one validator, as the agent's own
 * change): in progress with the helper as owner while it works; completed, or back to pending and
 * the main agent's, when it ends. Null when done; else the validator's words.
 */
export function moveStep(plan: PlanStore, itemId: string, status: PlanStatus, owner: string | null): string | null {
  if (!plan.items.some((item) => item.id === itemId)) return `Step #${itemId} is no longer in the plan.`;
  const items = plan.items.map((item) => (item.id === itemId ? { ...item, status, owner: owner ?? MAIN_OWNER } : item));
  const result = plan.propose(items, { source: 'agent' });
  if (result.ok) return null;
  return result.reason === 'invalid' ? result.error.message : 'The plan changed meanwhile.';
}
