import { ELECTRON_CHANNEL_PREFIX, ErrorCodes, isEventChannel, isRequestChannel } from '../common/contract';
import { terminalBridge, type TerminalBridge } from './terminalBridge';

/** The two pieces of electron the bridge uses, as plain shapes: a test hands in stand-ins. */
export interface BridgeContext {
  exposeInMainWorld(key: string, api: unknown): void;
}
export interface BridgeIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface KeelIpcBridge {
  request(channel: string, input: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** Terminal output as bytes and its acknowledgements, outside the JSON contract (terminalBridge.ts). */
  terminalOutput: TerminalBridge;
}

/** The page's `keelIpc`: the contract and nothing else; only declared channels pass, in either direction. */
export function createKeelBridge(ipc: BridgeIpc): KeelIpcBridge {
  return {
    request(channel: string, input: unknown): Promise<unknown> {
      if (typeof channel !== 'string' || !isRequestChannel(channel)) {
        return Promise.resolve({ ok: false, error: { code: ErrorCodes.unknownChannel, message: `No channel ${String(channel)}` } });
      }
      return ipc.invoke(ELECTRON_CHANNEL_PREFIX + channel, input);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (typeof event !== 'string' || !isEventChannel(event) || typeof listener !== 'function') return () => undefined;
      // The page gets the payload only, never Electron's event object (it carries the sender).
      const wrapped = (_: unknown, payload: unknown) => listener(payload);
      ipc.on(ELECTRON_CHANNEL_PREFIX + event, wrapped);
      return () => void ipc.removeListener(ELECTRON_CHANNEL_PREFIX + event, wrapped);
    },
    terminalOutput: terminalBridge(ipc),
  };
}

export function exposeKeelBridge(context: BridgeContext, ipc: BridgeIpc): void {
  context.exposeInMainWorld('keelIpc', createKeelBridge(ipc));
}
