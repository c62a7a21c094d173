import { contextBridge, ipcRenderer } from 'electron';
import { ELECTRON_CHANNEL_PREFIX, isEventChannel, isRequestChannel } from '../common/contract';
import { terminalBridge } from './terminalBridge';

// Exposes the contract and nothing else: only declared channels pass, in either direction.
contextBridge.exposeInMainWorld('keelIpc', {
  request(channel: string, input: unknown): Promise<unknown> {
    if (!isRequestChannel(channel)) return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: `No channel ${channel}` } });
    return ipcRenderer.invoke(ELECTRON_CHANNEL_PREFIX + channel, input);
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (!isEventChannel(event)) return () => undefined;
    const wrapped = (_: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(ELECTRON_CHANNEL_PREFIX + event, wrapped);
    return () => ipcRenderer.removeListener(ELECTRON_CHANNEL_PREFIX + event, wrapped);
  },
  terminalOutput: terminalBridge(ipcRenderer),
});
