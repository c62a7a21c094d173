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
  'blocked_by_invalid',
  'owner_invalid',
  'blocked_by_unknown',
  'blocked_by_self',
  'dependency_cycle',
  'blocked_by_unfinished',
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

export function refusal(problems: PlanProblem[]): PlanRefusal {
  // `problems` keeps one entry per offending item (the board marks each), but the text says a
  // shared problem once: three items in_progress is one thing to fix, not two identical lines.
  const lines = [...new Set(problems.map((p) => `- ${p.message}`))];
  const message = `Plan refused; nothing was changed. ${lines.length === 1 ? 'One problem' : `${lines.length} problems`}:\n${lines.join('\n')}\nSend the whole corrected list again.`;
  return { message, problems };
}

export function describeType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
