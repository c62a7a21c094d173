/*
 * The preload's half of the terminal byte path: output arrives as (id, seq, Uint8Array) and
 * acknowledgements go back, on the two channels main/electron/terminalIpc.ts listens on. A plain
 * function over an ipcRenderer-like object, so that a test can run it without Electron.
 */

import { TERMINAL_ACK_IPC, TERMINAL_OUTPUT_IPC } from '../common/terminalFrames';

export interface RendererIpc {
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  send(channel: string, ...args: unknown[]): void;
}

export interface TerminalBridge {
  on(listener: (id: string, seq: number, data: Uint8Array) => void): () => void;
  ack(id: string, bytes: number, parseRate?: number): void;
}

export function terminalBridge(ipc: RendererIpc): TerminalBridge {
  return {
    on(listener) {
      const wrapped = (_event: unknown, id: unknown, seq: unknown, data: unknown) => {
        if (typeof id === 'string' && typeof seq === 'number' && data instanceof Uint8Array) listener(id, seq, data);
      };
      ipc.on(TERMINAL_OUTPUT_IPC, wrapped as (event: unknown, ...args: unknown[]) => void);
      return () => ipc.removeListener(TERMINAL_OUTPUT_IPC, wrapped as (event: unknown, ...args: unknown[]) => void);
    },
    ack(id, bytes, parseRate) {
      // Main leaves out a rate that is not a positive whole number, undefined included.
      ipc.send(TERMINAL_ACK_IPC, id, bytes, parseRate);
    },
  };
}
