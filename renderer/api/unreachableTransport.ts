import type { KeelApi } from '../../common/contract';

/**
 * A page with neither the window's bridge nor a `keel web` host (the preload failed to load):
 * every request fails at once with what to do, rather than waiting for ever.
 */
export function createUnreachableApi(message: string): KeelApi {
  return {
    request: async () => ({ ok: false, error: { code: 'disconnected', message } }),
    on: () => () => undefined,
  };
}
