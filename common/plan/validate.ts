import { assignIds } from './assignIds';
import { checkGraph, severalInProgress } from './checkGraph';
import { checkItem, type CheckedItem } from './checkItem';
import { describeType, refusal, type PlanProblem, type PlanRefusal } from './problems';
import { MAIN_OWNER, MAX_PLAN_ITEMS, type PlanItem } from './types';

export { PLAN_PROBLEM_CODES, type PlanProblem, type PlanProblemCode, type PlanRefusal } from './problems';

export type PlanValidation = { ok: true; items: PlanItem[] } | { ok: false; error: PlanRefusal };

export interface ValidateOptions {
  /**
   * Ids that items of earlier versions carried (the store passes its whole history). A new item
   * never gets one of them, so a diff across several versions cannot mistake a removed step and a
   * later, unrelated new step for one reworded step.
   */
  usedIds?: Iterable<string>;
  /**
   * The list is a version read back from a transcript, item for item as it was stored: any
   * non-empty id stays, since it was valid when stored (plans saved before ids had a short form
   * load unchanged), and a field an item lacks is absent, not kept from the version before.
   */
  stored?: boolean;
}

/**
 * The one function that decides whether a proposed plan is valid (docs/plan-rules.md, "One validator").
 * The `todo` tool, board edits, restored and imported plans all come through here.
 * All or nothing: on any problem it returns every problem found and no items.
 * `previous` is the stored plan: ids stay stable across rewrites, and an item that is the same step
 * as a stored one (it names its id, or has its text) keeps the `blockedBy` and `owner` it leaves out.
 */
export function validatePlan(proposed: unknown, previous: readonly PlanItem[] = [], options: ValidateOptions = {}): PlanValidation {
  if (!Array.isArray(proposed)) {
    return refuse([
      {
        index: null,
        code: 'not_a_list',
        params: { got: describeType(proposed) },
        message: `\`items\` must be a list of plan items, but got ${describeType(proposed)}. Send { "items": [ { "content": "...", "status": "pending" }, ... ] }.`,
      },
    ]);
  }

  const problems: PlanProblem[] = [];
  if (proposed.length > MAX_PLAN_ITEMS) {
    problems.push({
      index: null,
      code: 'too_many',
      params: { count: proposed.length, max: MAX_PLAN_ITEMS },
      message: `The plan has ${proposed.length} items; at most ${MAX_PLAN_ITEMS} are allowed. Merge related steps or drop finished detail so that ${MAX_PLAN_ITEMS} or fewer remain.`,
    });
  }

  // Asked only of an id without the short form: a plan saved before ids had one.
  const acceptsId = (id: string) => options.stored === true || previous.some((item) => item.id === id);
  const checked: (CheckedItem | null)[] = proposed.map((raw, index) => checkItem(raw, index, problems, acceptsId));
  const seenIds = new Map<string, number>();
  checked.forEach((item, index) => {
    if (!item?.id) return;
    const first = seenIds.get(item.id);
    if (first === undefined) seenIds.set(item.id, index);
    else
      problems.push({
        index,
        code: 'id_repeated',
        params: { item: index + 1, id: item.id, first: first + 1 },
        message: `Item ${index + 1} repeats the id "${item.id}" of item ${first + 1}. Each item needs its own id; leave id out for a new item.`,
      });
  });

  if (problems.length > 0) {
    // The graph needs every item's id; what can be said without it still is.
    const byId = new Map(previous.map((item) => [item.id, item]));
    const sent = checked.map((item) => item && { ...item, owner: item.owner ?? (item.id ? byId.get(item.id)?.owner : undefined) });
    return refuse([...problems, ...severalInProgress(sent)]);
  }

  const items = storedItems(checked as CheckedItem[], previous, options);
  const graphProblems = checkGraph(
    items,
    (checked as CheckedItem[]).map((item) => item.blockedBy),
  );
  return graphProblems.length > 0 ? refuse(graphProblems) : { ok: true, items };
}

/** The items as they would be stored: ids given, and what a same step left out kept from the stored one. */
function storedItems(checked: readonly CheckedItem[], previous: readonly PlanItem[], options: ValidateOptions): PlanItem[] {
  const assigned = assignIds(checked, previous, options.usedIds ?? []);
  let ids: Set<string> | undefined;
  return checked.map((item, i) => {
    const { id } = assigned[i]!;
    const same = options.stored ? undefined : assigned[i]!.same;
    const stored: PlanItem = { id, content: item.content, status: item.status };
    if (item.activeForm) stored.activeForm = item.activeForm;
    // Kept dependencies follow the list: a step that was removed is no longer waited for.
    const blockedBy = item.blockedBy ?? same?.blockedBy?.filter((dependency) => (ids ??= new Set(assigned.map((a) => a.id))).has(dependency));
    if (blockedBy?.length) stored.blockedBy = blockedBy;
    const owner = item.owner ?? same?.owner;
    if (owner !== undefined && owner !== MAIN_OWNER) stored.owner = owner;
    return stored;
  });
}

function refuse(problems: PlanProblem[]): PlanValidation {
  return { ok: false, error: refusal(problems) };
}
