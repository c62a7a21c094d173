import type { KeelApi, TerminalOutputStream } from '../../common/contract';

interface KeelIpcBridge {
  request(channel: string, input: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  terminalOutput: TerminalOutputStream;
}

declare global {
  interface Window {
    keelIpc?: KeelIpcBridge;
  }
}

/** The Electron transport: the preload's bridge, typed by the contract. */
export function createIpcApi(bridge: KeelIpcBridge): KeelApi {
  return {
    request: (channel, input) => bridge.request(channel, input) as never,
    on: (event, listener) => bridge.on(event, listener as (payload: unknown) => void),
    terminalOutput: bridge.terminalOutput,
  };
}
