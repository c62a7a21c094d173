import type { KeelApi } from '../../common/contract';
import { createIpcApi } from './ipcTransport';
import { createWsApi, takePageToken } from './wsTransport';

/** The renderer's one API object; which transport carries it is decided here and nowhere else. */
function createApi(): KeelApi {
  if (window.keelIpc) return createIpcApi(window.keelIpc);
  const token = takePageToken(window.location, window.history, window.sessionStorage);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createWsApi(`${scheme}://${window.location.host}/ws?token=${encodeURIComponent(token)}`);
}

export const api: KeelApi = createApi();
