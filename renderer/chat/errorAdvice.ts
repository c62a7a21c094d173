import type { TaskErrorCode } from '../../common/errorCodes';

/** What went wrong, as the card advises on it. */
export type ErrorKind = 'auth' | 'no_key' | 'forbidden' | 'not_found' | 'connection' | 'overloaded' | 'max_tokens' | 'too_long' | 'bad_request' | 'other';

const kindOf: Record<TaskErrorCode, ErrorKind> = {
  no_key: 'no_key',
  auth: 'auth',
  forbidden: 'forbidden',
  not_found: 'not_found',
  bad_request: 'bad_request',
  overloaded: 'overloaded',
  connection: 'connection',
  max_tokens: 'max_tokens',
  too_long: 'too_long',
  api: 'other',
  internal: 'other',
};

/** The kind main named; a task recorded without a code (an older Keel) gets the general advice. */
export function classifyError(code: TaskErrorCode | undefined): ErrorKind {
  return code === undefined ? 'other' : kindOf[code];
}

/** Kinds the settings can fix: the card offers "Open settings" (for too_long: the context window). */
export const SETTINGS_FIX: ReadonlySet<ErrorKind> = new Set(['auth', 'no_key', 'forbidden', 'not_found', 'connection', 'max_tokens', 'too_long']);

/** Kinds that may pass by themselves: the card offers "Try again" (for too_long: room was made). */
export const RETRY_FIX: ReadonlySet<ErrorKind> = new Set(['overloaded', 'connection', 'too_long', 'other']);
