import type { KeelApi } from '../../common/contract';
import { createIpcApi } from './ipcTransport';
import { createUnreachableApi } from './unreachableTransport';
import { socketOpener } from './socketLink';
import { createWsApi, takePageToken } from './wsTransport';

/** The renderer's one API object; which transport carries it is decided here and nowhere else. */
function createApi(): KeelApi {
  if (window.keelIpc) return createIpcApi(window.keelIpc);
  // The window's own keel://app page talks over the bridge only; without it there is no host to reach.
  if (window.location.protocol !== 'http:' && window.location.protocol !== 'https:') {
    return createUnreachableApi('no_bridge');
  }
  // The token leaves the address bar at once; a reload of this tab finds it in sessionStorage.
  const token = takePageToken(window.location, window.history, window.sessionStorage);
  // keel web refuses a socket without its token: say so at once rather than retry for ever.
  if (!token) {
    return createUnreachableApi('no_token');
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const openSocket =
    typeof Worker === 'function'
      ? socketOpener((first) => new Worker(new URL('./socketWorker.ts', import.meta.url), { type: 'module', name: JSON.stringify(first) }))
      : undefined;
  return createWsApi(`${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`, openSocket);
}

export const api: KeelApi = createApi();
