import { describeType, type PlanProblem } from './problems';
import { MAIN_OWNER, MAX_PLAN_ITEM_LENGTH, MAX_SHORT_ID_LENGTH, PLAN_STATUSES, SHORT_ID_PATTERN, type PlanStatus } from './types';

/** One proposed item with its fields checked; the graph is judged once every item is. */
export interface CheckedItem {
  id: string | undefined;
  content: string;
  status: PlanStatus;
  activeForm: string | undefined;
  /** Undefined when left out (the same step then keeps what it waited for); [] when it waits for none. */
  blockedBy: string[] | undefined;
  /** Undefined when left out; MAIN_OWNER when named so or given as null. */
  owner: string | undefined;
}

/**
 * Checks one item's fields, pushing a problem for each one wrong. `acceptsId` says whether an id
 * that is not of the short form may stay: one the stored plan already uses does, so that plans
 * saved before ids had a form keep working.
 */
export function checkItem(raw: unknown, index: number, problems: PlanProblem[], acceptsId: (id: string) => boolean): CheckedItem | null {
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
  const before = problems.length;

  const content = checkContent(fields.content, where, index, problems);
  const status = checkStatus(fields.status, content, where, index, problems);
  const activeForm = checkActiveForm(fields.activeForm, where, index, problems);
  const id = checkId(fields.id, where, index, problems, acceptsId);
  const blockedBy = checkBlockedBy(fields.blockedBy, where, index, problems);
  const owner = checkOwner(fields.owner, where, index, problems);

  return problems.length === before ? { id, content: content!, status: status!, activeForm, blockedBy, owner } : null;
}

function checkContent(value: unknown, where: string, index: number, problems: PlanProblem[]): string | undefined {
  const content = typeof value === 'string' ? value.trim() : '';
  if (typeof value !== 'string' && value !== undefined && value !== null) {
    problems.push({
      index,
      code: 'content_not_text',
      params: { item: index + 1, got: describeType(value) },
      message: `${where}: content must be text, but got ${describeType(value)}.`,
    });
    return undefined;
  }
  if (content === '') {
    const what = typeof value === 'string' ? 'empty' : 'missing';
    problems.push({
      index,
      code: what === 'empty' ? 'content_empty' : 'content_missing',
      params: { item: index + 1 },
      message: `${where}: content is ${what}. Give every item a short, checkable description of the step.`,
    });
    return undefined;
  }
  if (tooLong(content)) {
    problems.push({
      index,
      code: 'content_too_long',
      params: { item: index + 1, length: characters(content), limit: MAX_PLAN_ITEM_LENGTH },
      message: `${where} is ${characters(content)} characters long; at most ${MAX_PLAN_ITEM_LENGTH} are allowed. Shorten it to one checkable step and put the details in a file or a message.`,
    });
    return undefined;
  }
  return content;
}

function checkStatus(value: unknown, content: string | undefined, where: string, index: number, problems: PlanProblem[]): PlanStatus | undefined {
  if (value === undefined || value === null) return 'pending';
  const normalised = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (normalised !== undefined && (PLAN_STATUSES as readonly string[]).includes(normalised)) return normalised as PlanStatus;
  const shown = typeof value === 'string' ? `"${value}"` : describeType(value);
  const named = content === undefined ? where : `${where} ("${content}")`;
  problems.push({
    index,
    code: 'status_invalid',
    params: { item: index + 1, content: content ?? '', status: shown },
    message: `${named}: status ${shown} is not one of ${PLAN_STATUSES.join(', ')}.`,
  });
  return undefined;
}

function checkActiveForm(value: unknown, where: string, index: number, problems: PlanProblem[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    problems.push({
      index,
      code: 'active_form_not_text',
      params: { item: index + 1, got: describeType(value) },
      message: `${where}: activeForm must be text, such as "Running the tests", but got ${describeType(value)}.`,
    });
    return undefined;
  }
  const text = value.trim();
  if (tooLong(text)) {
    problems.push({
      index,
      code: 'active_form_too_long',
      params: { item: index + 1, length: characters(text), limit: MAX_PLAN_ITEM_LENGTH },
      message: `${where}: activeForm is ${characters(text)} characters long; at most ${MAX_PLAN_ITEM_LENGTH} are allowed. Use a short phrase, such as "Running the tests".`,
    });
    return undefined;
  }
  return text === '' ? undefined : text;
}

/** An id as a writer may type it: a number, or text with or without the `#` it is shown with. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const text = trimmed.charCodeAt(0) === 35 /* # */ ? trimmed.slice(1) : trimmed;
  return text === '' ? undefined : text;
}

function checkId(value: unknown, where: string, index: number, problems: PlanProblem[], acceptsId: (id: string) => boolean): string | undefined {
  if (value === undefined || value === null) return undefined;
  const id = idText(value);
  if (id === undefined) return reportId(value, where, index, problems);
  // A stored id is kept as it is, even one that begins with the # the short form drops.
  if (typeof value === 'string' && id.length !== value.trim().length && acceptsId(value.trim())) return value.trim();
  if (SHORT_ID_PATTERN.test(id) || acceptsId(id)) return id;
  return reportId(value, where, index, problems);
}

function reportId(value: unknown, where: string, index: number, problems: PlanProblem[]): undefined {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const got = text === undefined ? describeType(value) : `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
  problems.push({
    index,
    code: 'id_invalid',
    params: { item: index + 1, got },
    message: `${where}: id ${got} is not a short id. Use letters, digits and "-" (at most ${MAX_SHORT_ID_LENGTH}), such as "parse" or "write-tests", or leave id out and Keel gives one.`,
  });
  return undefined;
}

function checkBlockedBy(value: unknown, where: string, index: number, problems: PlanProblem[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  const entries = Array.isArray(value) ? value.map(idText) : null;
  if (entries === null || entries.some((id) => id === undefined)) {
    const got = Array.isArray(value) ? describeType(value.find((entry) => idText(entry) === undefined)) : describeType(value);
    problems.push({
      index,
      code: 'blocked_by_invalid',
      params: { item: index + 1, got },
      message: `${where}: blockedBy must be a list of item ids, such as ["parse", "3"], but it holds ${got}.`,
    });
    return undefined;
  }
  // Said twice, waited for once; lists are a few ids long.
  return (entries as string[]).filter((id, at) => entries.indexOf(id) === at);
}

function checkOwner(value: unknown, where: string, index: number, problems: PlanProblem[]): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return MAIN_OWNER;
  const owner = typeof value === 'string' ? value.trim() : undefined;
  if (owner !== undefined && SHORT_ID_PATTERN.test(owner)) return owner;
  problems.push({
    index,
    code: 'owner_invalid',
    params: { item: index + 1, got: describeType(value) },
    message: `${where}: owner must be the name of an agent (letters, digits and "-"), such as "${MAIN_OWNER}", but got ${describeType(value)}. Leave it out for the main agent.`,
  });
  return undefined;
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
