import { MAX_PLAN_ITEM_LENGTH, MAX_PLAN_ITEMS, PLAN_STATUSES, type PlanItem, type PlanStatus } from './types';

/** What kind of problem it is, so a window can say it in the person's language. */
export const PLAN_PROBLEM_CODES = [
  'not_a_list',
  'too_many',
  'not_an_object',
  'content_not_text',
  'content_empty',
  'content_missing',
  'status_invalid',
  'active_form_not_text',
  'content_too_long',
  'active_form_too_long',
  'id_invalid',
  'id_repeated',
  'several_in_progress',
] as const;
export type PlanProblemCode = (typeof PLAN_PROBLEM_CODES)[number];

/**
 * One thing wrong with a proposed plan; `index` is the 0-based item, or null for the list itself.
 * `message` is the English wording a model reads; `code` and `params` say the same for a window
 * to translate (item numbers in params are 1-based, `otherIndex` 0-based).
 */
export interface PlanProblem {
  index: number | null;
  message: string;
  code: PlanProblemCode;
  params: Record<string, string | number>;
}

export interface PlanRefusal {
  /** The whole explanation, written for a model (as an is_error tool result) and a person alike. */
  message: string;
  problems: PlanProblem[];
}

export type PlanValidation = { ok: true; items: PlanItem[] } | { ok: false; error: PlanRefusal };

export interface ValidateOptions {
  /**
   * Ids that items of earlier versions carried (the store passes its whole history). A new item
   * never gets one of them, so a diff across several versions cannot mistake a removed step and a
   * later, unrelated new step for one reworded step.
   */
  usedIds?: Iterable<string>;
}

interface CheckedItem {
  id: string | undefined;
  content: string;
  status: PlanStatus;
  activeForm: string | undefined;
}

/**
 * The one function that decides whether a proposed plan is valid (docs/plan-rules.md, "One validator").
 * The `todo` tool, board edits, restored and imported plans all come through here.
 * All or nothing: on any problem it returns every problem found and no items.
 * `previous` is the stored plan; it and `options.usedIds` are only used to keep ids stable across rewrites.
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

  const checked: (CheckedItem | null)[] = proposed.map((raw, index) => checkItem(raw, index, problems));
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

  const inProgress = checked.flatMap((item, index) => (item?.status === 'in_progress' ? [index] : []));
  if (inProgress.length > 1) {
    const names = inProgress.map((i) => `item ${i + 1} ("${checked[i]?.content}")`).join(', ');
    for (const index of inProgress.slice(1)) {
      problems.push({
        index,
        code: 'several_in_progress',
        params: {
          item: index + 1,
          content: checked[index]?.content ?? '',
          other: checked[inProgress[0]!]?.content ?? '',
          otherIndex: inProgress[0]!,
          count: inProgress.length,
        },
        message: `Only one item can be in_progress, but ${inProgress.length} are: ${names}. Mark the others pending or completed first.`,
      });
    }
  }

  if (problems.length > 0) return refuse(problems);
  return { ok: true, items: assignIds(checked as CheckedItem[], previous, options.usedIds ?? []) };
}

function checkItem(raw: unknown, index: number, problems: PlanProblem[]): CheckedItem | null {
  const where = `Item ${index + 1}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push({
      index,
      code: 'not_an_object',
      params: { item: index + 1, got: describeType(raw) },
      message: `${where} must be an object like { "content": "...", "status": "pending" }, but got ${describeType(raw)}.`,
    });
    return null;
  }
  const fields = raw as Record<string, unknown>;
  let ok = true;

  const content = typeof fields.content === 'string' ? fields.content.trim() : '';
  if (typeof fields.content !== 'string' && fields.content !== undefined && fields.content !== null) {
    problems.push({
      index,
      code: 'content_not_text',
      params: { item: index + 1, got: describeType(fields.content) },
      message: `${where}: content must be text, but got ${describeType(fields.content)}.`,
    });
    ok = false;
  } else if (content === '') {
    const what = typeof fields.content === 'string' ? 'empty' : 'missing';
    problems.push({
      index,
      code: what === 'empty' ? 'content_empty' : 'content_missing',
      params: { item: index + 1 },
      message: `${where}: content is ${what}. Give every item a short, checkable description of the step.`,
    });
    ok = false;
  } else if (tooLong(content)) {
    problems.push({
      index,
      code: 'content_too_long',
      params: { item: index + 1, length: characters(content), limit: MAX_PLAN_ITEM_LENGTH },
      message: `${where} is ${characters(content)} characters long; at most ${MAX_PLAN_ITEM_LENGTH} are allowed. Shorten it to one checkable step and put the details in a file or a message.`,
    });
    ok = false;
  }

  let status: PlanStatus = 'pending';
  if (fields.status !== undefined && fields.status !== null) {
    const normalised = typeof fields.status === 'string' ? fields.status.trim().toLowerCase() : undefined;
    if (normalised !== undefined && (PLAN_STATUSES as readonly string[]).includes(normalised)) {
      status = normalised as PlanStatus;
    } else {
      const shown = typeof fields.status === 'string' ? `"${fields.status}"` : describeType(fields.status);
      const named = content === '' ? where : `${where} ("${content}")`;
      problems.push({
        index,
        code: 'status_invalid',
        params: { item: index + 1, content, status: shown },
        message: `${named}: status ${shown} is not one of ${PLAN_STATUSES.join(', ')}.`,
      });
      ok = false;
    }
  }

  let activeForm: string | undefined;
  if (fields.activeForm !== undefined && fields.activeForm !== null) {
    if (typeof fields.activeForm !== 'string') {
      problems.push({
        index,
        code: 'active_form_not_text',
        params: { item: index + 1, got: describeType(fields.activeForm) },
        message: `${where}: activeForm must be text, such as "Running the tests", but got ${describeType(fields.activeForm)}.`,
      });
      ok = false;
    } else if (tooLong(fields.activeForm.trim())) {
      problems.push({
        index,
        code: 'active_form_too_long',
        params: { item: index + 1, length: characters(fields.activeForm.trim()), limit: MAX_PLAN_ITEM_LENGTH },
        message: `${where}: activeForm is ${characters(fields.activeForm.trim())} characters long; at most ${MAX_PLAN_ITEM_LENGTH} are allowed. Use a short phrase, such as "Running the tests".`,
      });
      ok = false;
    } else if (fields.activeForm.trim() !== '') {
      activeForm = fields.activeForm.trim();
    }
  }

  let id: string | undefined;
  if (fields.id !== undefined && fields.id !== null) {
    if (typeof fields.id === 'number' && Number.isInteger(fields.id)) id = String(fields.id);
    else if (typeof fields.id === 'string' && fields.id.trim() !== '') id = fields.id.trim();
    else {
      problems.push({
        index,
        code: 'id_invalid',
        params: { item: index + 1, got: describeType(fields.id) },
        message: `${where}: id must be a non-empty string, but got ${describeType(fields.id)}. Leave id out for a new item.`,
      });
      ok = false;
    }
  }

  return ok ? { id, content, status, activeForm } : null;
}

/**
 * Keeps ids stable so a rewrite can be described as a diff: an item keeps its id when it names it,
 * else when its text matches an unclaimed previous item, else when it stands where an unclaimed
 * previous item stood (a reworded step). Anything left gets a fresh id.
 */
function assignIds(items: CheckedItem[], previous: readonly PlanItem[], usedIds: Iterable<string>): PlanItem[] {
  const claimed = new Set(items.flatMap((item) => (item.id ? [item.id] : [])));
  const ids: (string | undefined)[] = items.map((item) => item.id);

  const byContent = (i: number) => {
    const key = normaliseText(items[i]!.content);
    return previous.find((old) => !claimed.has(old.id) && normaliseText(old.content) === key);
  };
  const byPosition = (i: number) => {
    const old = previous[i];
    return old && !claimed.has(old.id) ? old : undefined;
  };
  for (const match of [byContent, byPosition]) {
    ids.forEach((id, i) => {
      if (id) return;
      const old = match(i);
      if (old) {
        ids[i] = old.id;
        claimed.add(old.id);
      }
    });
  }

  const known = [...previous.map((p) => p.id), ...claimed, ...usedIds];
  // reduce, not Math.max(...): a long session's history can hold more ids than a call may take arguments.
  let next = 1 + known.reduce((max, id) => (/^\d+$/.test(id) ? Math.max(max, Number(id)) : max), 0);
  return items.map((item, i) => {
    let id = ids[i];
    if (!id) {
      while (claimed.has(String(next))) next++;
      id = String(next++);
      claimed.add(id);
    }
    const stored: PlanItem = { id, content: item.content, status: item.status };
    if (item.activeForm) stored.activeForm = item.activeForm;
    return stored;
  });
}

/** Characters as a person counts them: code points, so 500 Chinese characters or emoji fit. */
function characters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) count++; // a low surrogate continues the character before it
  }
  return count;
}

function tooLong(text: string): boolean {
  return text.length > MAX_PLAN_ITEM_LENGTH && characters(text) > MAX_PLAN_ITEM_LENGTH;
}

function normaliseText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

function describeType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function refuse(problems: PlanProblem[]): PlanValidation {
  // `problems` keeps one entry per offending item (the board marks each), but the text says a
  // shared problem once: three items in_progress is one thing to fix, not two identical lines.
  const lines = [...new Set(problems.map((p) => `- ${p.message}`))];
  const message = `Plan refused; nothing was changed. ${lines.length === 1 ? 'One problem' : `${lines.length} problems`}:\n${lines.join('\n')}\nSend the whole corrected list again.`;
  return { ok: false, error: { message, problems } };
}
