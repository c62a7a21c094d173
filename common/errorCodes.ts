/* Kept apart from the zod schemas so the window can branch on codes without bundling zod. */

/** Error codes a client may branch on: every code a `Result` error carries, whoever makes it. */
export const ErrorCodes = {
  badRequest: 'bad_request',
  unknownChannel: 'unknown_channel',
  planInvalid: 'plan_invalid',
  planConflict: 'plan_conflict',
  noWorkspace: 'no_workspace',
  workspaceNotFound: 'workspace_not_found',
  taskRunning: 'task_running',
  sessionInUse: 'session_in_use',
  limitReached: 'limit_reached',
  keyStorage: 'key_storage',
  config: 'config',
  unsupported: 'unsupported',
  /** The network policy refused a host (details: NetworkRefusalDetails in main/network/refusals.ts). */
  networkRefused: 'network_refused',
  /** A host could not be reached: no such name, refused, timed out (details: host, error). */
  networkError: 'network_error',
  internal: 'internal',
  /** The request came from a window Keel did not open. */
  forbidden: 'forbidden',
  /** The client lost (or never had) its connection to Keel; `details.reason` says which. */
  disconnected: 'disconnected',
  /** The message is larger than the wire accepts at once. */
  tooLarge: 'too_large',
  /** Helper channels (common/helpers.ts): no such helper, it already ended, it has no kept worktree. */
  helperNotFound: 'helper_not_found',
  helperEnded: 'helper_ended',
  helperNoWorktree: 'helper_no_worktree',
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Why a request to the model failed, as main decided it from the API's answer. */
export const MODEL_ERROR_CODES = ['no_key', 'auth', 'forbidden', 'not_found', 'bad_request', 'overloaded', 'connection', 'api'] as const;
export type ModelErrorCode = (typeof MODEL_ERROR_CODES)[number];

/**
 * Why a task ended in an error: a model error, the answer cut by max_tokens too often, the
 * conversation too long even after making room, or Keel's own failure.
 */
export const TASK_ERROR_CODES = [...MODEL_ERROR_CODES, 'max_tokens', 'too_long', 'internal'] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

/** One refused field of a request: where in the payload (`baseURL`, `rules.0`; '' for the whole), and why. */
export interface FieldError {
  path: string;
  message: string;
}

/** Schema issues as field errors (zod's issues fit without zod being imported). */
export function toFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldError[] {
  return issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** The field errors a `bad_request` error carries in its details, or none. */
export function fieldErrorsOf(details: unknown): FieldError[] {
  const fields = (details as { fields?: unknown } | null | undefined)?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter((f): f is FieldError => typeof f?.path === 'string' && typeof f?.message === 'string');
}
