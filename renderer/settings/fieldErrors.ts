/*
 * The contract refuses a malformed settings.update with one message naming each field:
 * "The settings.update request was malformed: baseURL: Invalid URL; maxTokens: Too big…".
 * This splits it so each problem can be shown under its own field. Pure.
 */

export interface SplitErrors {
  /** The contract's words, by field name (baseURL, maxTokens, …). */
  fields: Record<string, string>;
  /** Whatever names no field. */
  general: string | null;
}

export function splitFieldErrors(message: string, knownFields: readonly string[]): SplitErrors {
  const match = /request was malformed: (.*?)\.?$/s.exec(message);
  if (!match) return { fields: {}, general: message };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of match[1]!.split('; ')) {
    const colon = part.indexOf(': ');
    const field = colon < 0 ? '' : part.slice(0, colon);
    if (knownFields.includes(field)) fields[field] = fields[field] ? `${fields[field]}; ${part.slice(colon + 2)}` : part.slice(colon + 2);
    else rest.push(part);
  }
  return { fields, general: rest.length > 0 ? rest.join('; ') : null };
}

/** The same split for a refusal found before sending, from the schema's own issues. */
export function issuesByField(issues: readonly { path: readonly PropertyKey[]; message: string }[], knownFields: readonly string[]): SplitErrors {
  const message = `request was malformed: ${issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : 'payload'}: ${i.message}`).join('; ')}.`;
  return splitFieldErrors(message, knownFields);
}
