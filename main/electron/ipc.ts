import type { IpcMain, WebContents } from 'electron';
import { ELECTRON_CHANNEL_PREFIX, ErrorCodes, requestChannels } from '../../common/contract';
import type { KeelCore } from '../api/core';
import { dispatchRequest } from '../api/dispatch';

/**
 * Binds the contract to Electron IPC: one handler per request channel (the contract is the
 * allowlist), each payload validated by the same dispatcher the WebSocket host uses, and only
 * frames from our own window are answered.
 */
export function bindIpc(ipcMain: IpcMain, core: KeelCore, isOwnWindow: (sender: WebContents) => boolean): () => void {
  for (const channel of requestChannels) {
    ipcMain.handle(ELECTRON_CHANNEL_PREFIX + channel, (event, payload: unknown) => {
      if (!isOwnWindow(event.sender)) return { ok: false, error: { code: ErrorCodes.forbidden, message: 'Request from an unknown window.' } };
      return dispatchRequest(core.handlers, channel, payload);
    });
  }
  return () => {
    for (const channel of requestChannels) ipcMain.removeHandler(ELECTRON_CHANNEL_PREFIX + channel);
  };
}

/** Forwards the core's events to the window. */
export function forwardEvents(core: KeelCore, target: () => WebContents | null): () => void {
  return core.onEvent(({ channel, payload }) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(ELECTRON_CHANNEL_PREFIX + channel, payload);
  });
}
