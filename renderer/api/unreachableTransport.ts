import type { KeelApi } from '../../common/contract';
import { ErrorCodes } from '../../common/errorCodes';

/** Why a page has no host: the window's preload did not give it the bridge, or keel web's token is missing. */
export type NoHostReason = 'no_bridge' | 'no_token';

const MESSAGES: Record<NoHostReason, string> = {
  no_bridge: 'This window has no connection to Keel (its bridge did not load). Quit Keel and start it again; if that does not help, reinstall it.',
  no_token: 'This page has no connection to Keel. Open the address that "keel web" printed, with its ?token= part.',
};

/**
 * A page with neither the window's bridge nor a `keel web` host to reach: every request fails at
 * once with what to do (the reason in `details`, for the window to say in the person's language),
 * rather than waiting for ever.
 */
export function createUnreachableApi(reason: NoHostReason): KeelApi {
  return {
    request: async () => ({ ok: false, error: { code: ErrorCodes.disconnected, message: MESSAGES[reason], details: { reason } } }),
    on: () => () => undefined,
    terminalOutput: { on: () => () => undefined, ack: () => undefined },
  };
}

/** The reason a failed request gives, when it failed for want of a host. */
export function noHostReason(details: unknown): NoHostReason | null {
  const reason = (details as { reason?: unknown } | undefined)?.reason;
  return reason === 'no_bridge' || reason === 'no_token' ? reason : null;
}
