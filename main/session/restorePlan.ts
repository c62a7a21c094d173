import type { PlanVersion } from '../../common/plan/types';
import { PlanOverrideSchema } from '../../common/plan/schemas';
import { validatePlan } from '../../common/plan/validate';
import { recordItems } from './planRecords';
import { PlanRecordSchema } from './transcriptRecords';

/**
 * Rebuilds the plan's version history from transcript records. A restored plan passes the same
 * validator as every other; a record that fails is skipped with a warning, never repaired.
 */
export function restorePlanHistory(records: readonly unknown[]): { history: PlanVersion[]; warnings: string[] } {
  const history: PlanVersion[] = [];
  const warnings: string[] = [];
  for (const value of records) {
    const parsed = PlanRecordSchema.safeParse(value);
    if (!parsed.success) {
      warnings.push('A saved plan version has no valid number or source and was skipped.');
      continue;
    }
    const record = parsed.data;
    const version = record.version;
    const last = history.at(-1);
    if (version <= (last?.version ?? 0)) {
      warnings.push(`A saved plan version (${version}) is out of order and was skipped.`);
      continue;
    }
    const proposed = recordItems(record, last);
    if ('problem' in proposed) {
      warnings.push(`Saved plan version ${version} was skipped: ${proposed.problem}.`);
      continue;
    }
    const checked = validatePlan(proposed.items, last?.items ?? [], { stored: true });
    if (!checked.ok) {
      warnings.push(`Saved plan version ${version} is not a valid plan and was skipped: ${checked.error.problems.map((p) => p.message).join(' ')}`);
      continue;
    }
    const restored: PlanVersion = { version, source: record.source, items: checked.items, at: record.at ?? '' };
    // What the board said about the agent undoing the person's edit is kept when it still reads well.
    const overrides = PlanOverrideSchema.array().safeParse(record.overrides);
    if (record.source === 'agent' && overrides.success && overrides.data.length > 0) restored.overrides = overrides.data;
    history.push(restored);
  }
  return { history, warnings };
}
