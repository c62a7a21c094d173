import type { PlanOverride } from '../../common/plan/overrides';
import { api } from '../api';
import { undoOverride } from './proposals';

/**
 * The chat's "Put it back": the same edit the board makes, on the plan as stored now, sent with its
 * version through `plan.edit` (and so through the one validator). True when stored or already so.
 */
export async function undoOverrideEdit(override: PlanOverride): Promise<boolean> {
  const current = await api.request('plan.get', {});
  if (!current.ok) return false;
  const items = undoOverride(current.value.items, override);
  if (items === null) return true;
  const result = await api.request('plan.edit', { baseVersion: current.value.version, items });
  return result.ok;
}
