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

/** Kinds the model's connection fixes: "Open settings" opens them at the key, base URL and model. */
export const CONNECTION_FIX: ReadonlySet<ErrorKind> = new Set(['auth', 'no_key', 'forbidden', 'not_found', 'connection']);

/** Kinds that end a task before its request leaves Keel: the model never saw the message, "Try again" sends it. */
export const NOT_SENT: ReadonlySet<ErrorKind> = new Set(['no_key']);

/**
 * Kinds a second request may get past: the card offers "Try again", which sends the request again
 * (after the person fixed the connection, or by itself; for too_long: room was made).
 */
export const RETRY_FIX: ReadonlySet<ErrorKind> = new Set(['auth', 'no_key', 'forbidden', 'not_found', 'overloaded', 'connection', 'too_long', 'other']);
