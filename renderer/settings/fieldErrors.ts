import { fieldErrorsOf, toFieldErrors, type FieldError } from '../../common/errorCodes';
import type { KeelError } from '../../common/result';

/* Each refused field is shown under its own input; whatever names no field of the form, above it. Pure. */

export interface SplitErrors {
  /** The contract's words, by field name (baseURL, maxTokens, …). */
  fields: Record<string, string>;
  /** Whatever names no field. */
  general: string | null;
}

/** Field errors sorted into the form's fields and the rest. */
export function byField(errors: readonly FieldError[], knownFields: readonly string[]): SplitErrors {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const { path, message } of errors) {
    if (knownFields.includes(path)) fields[path] = fields[path] ? `${fields[path]}; ${message}` : message;
    else rest.push(`${path || 'payload'}: ${message}`);
  }
  return { fields, general: rest.length > 0 ? rest.join('; ') : null };
}

/** A refusal from main: its field errors by field, or its message when it names no field. */
export function splitFieldErrors(error: KeelError, knownFields: readonly string[]): SplitErrors {
  const errors = fieldErrorsOf(error.details);
  return errors.length > 0 ? byField(errors, knownFields) : { fields: {}, general: error.message };
}

/** The same split for a refusal found before sending, from the schema's own issues. */
export function issuesByField(issues: readonly { path: readonly PropertyKey[]; message: string }[], knownFields: readonly string[]): SplitErrors {
  return byField(toFieldErrors(issues), knownFields);
}
