/* Kept apart from the zod schemas so the window can branch on codes without bundling zod. */

/** Error codes a client may branch on. */
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
} as const;
