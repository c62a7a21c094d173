import type { PlanItem, PlanVersion } from '../../common/plan/types';
import type { PlanRecord } from './transcriptRecords';

/**
 * How plan versions are kept in the transcript. The first version is written whole; each later one
 * as `delta` against the version before it (`base`): the items in order, each with its id and only
 * the fields that differ from that item in the base (a new item has all of them; `activeForm`,
 * `blockedBy` or `owner` given as null removes it). A status change costs a few bytes instead of the whole plan again. `open` counts the
 * steps not completed, so the sessions list can tell how a session stands from the tail alone.
 */
export function planRecord(version: PlanVersion, base: PlanVersion | null): PlanRecord {
  const head = {
    type: 'plan' as const,
    version: version.version,
    source: version.source,
    at: version.at,
    open: version.items.filter((item) => item.status !== 'completed').length,
    ...(version.overrides ? { overrides: version.overrides } : {}),
  };
  if (base === null) return { ...head, items: version.items };
  const before = new Map(base.items.map((item) => [item.id, item]));
  const delta = version.items.map((item) => {
    const old = before.get(item.id);
    if (!old) return item;
    const entry: Record<string, unknown> = { id: item.id };
    if (item.content !== old.content) entry.content = item.content;
    if (item.status !== old.status) entry.status = item.status;
    if (item.activeForm !== old.activeForm) entry.activeForm = item.activeForm ?? null;
    if (!sameIds(item.blockedBy, old.blockedBy)) entry.blockedBy = item.blockedBy ?? null;
    if (item.owner !== old.owner) entry.owner = item.owner ?? null;
    return entry;
  });
  return { ...head, base: base.version, delta };
}

function sameIds(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((id, i) => id === y[i]);
}

/**
 * The items a plan record proposes, for the validator to judge: a whole record's items as they are,
 * a delta's filled in from its base. Null with a reason when a delta's base is not the version
 * restored just before it (it was skipped, or the record is out of place).
 */
export function recordItems(record: PlanRecord, last: PlanVersion | undefined): { items: unknown } | { problem: string } {
  if (record.delta === undefined) return { items: record.items };
  if (!Array.isArray(record.delta)) return { problem: 'its list of changes is not a list' };
  if (last === undefined || record.base !== last.version) {
    return { problem: `it is stored as changes to version ${String(record.base)}, which was not restored` };
  }
  const before = new Map<string, PlanItem>(last.items.map((item) => [item.id, item]));
  const items = record.delta.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
    const fields = entry as Record<string, unknown>;
    const old = typeof fields.id === 'string' ? before.get(fields.id) : undefined;
    return old ? { ...old, ...fields } : fields;
  });
  return { items };
}
