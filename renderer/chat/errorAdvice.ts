/** What went wrong, read from main's error message, so the card can say what to do next. */
export type ErrorKind = 'auth' | 'no_key' | 'forbidden' | 'not_found' | 'connection' | 'overloaded' | 'max_tokens' | 'bad_request' | 'other';

export function classifyError(message: string): ErrorKind {
  if (/No API key/i.test(message)) return 'no_key';
  if (/\(401\)|API key was refused|authentication_error|invalid x-api-key/i.test(message)) return 'auth';
  if (/\(403\)/.test(message)) return 'forbidden';
  if (/\(404\)/.test(message)) return 'not_found';
  if (/max_tokens limit|max tokens/i.test(message)) return 'max_tokens';
  if (/answered (429|5\d\d)|overloaded|rate.?limit/i.test(message)) return 'overloaded';
  if (/connection|stalled|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|fetch failed|network|socket hang up/i.test(message)) return 'connection';
  if (/\(400\)/.test(message)) return 'bad_request';
  return 'other';
}

/** Kinds the settings can fix: the card offers "Open settings". */
export const SETTINGS_FIX: ReadonlySet<ErrorKind> = new Set(['auth', 'no_key', 'forbidden', 'not_found', 'connection', 'max_tokens']);

/** Kinds that may pass by themselves: the card offers "Try again". */
export const RETRY_FIX: ReadonlySet<ErrorKind> = new Set(['overloaded', 'connection', 'other']);
