import { TERMINAL_ACK_IPC, TERMINAL_OUTPUT_IPC } from '../../common/terminalFrames';
import type { TerminalOutputListener } from '../terminal/terminalManager';

/** What this needs of Electron's WebContents, so that a test can stand in for it. */
export interface OutputTarget {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/** What this needs of ipcMain. */
export interface AckSource<Sender> {
  on(channel: string, listener: (event: { sender: Sender }, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: { sender: Sender }, ...args: unknown[]) => void): unknown;
}

/** Sends each batch of terminal output to the window as (id, seq, bytes). Returns the function that stops. */
export function forwardTerminalOutput(
  source: { onTerminalOutput(listener: TerminalOutputListener): () => void },
  target: () => OutputTarget | null,
): () => void {
  return source.onTerminalOutput((id, seq, data) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(TERMINAL_OUTPUT_IPC, id, seq, data);
  });
}

/**
 * The window's acknowledgements, for flow control. Checked here as the contract's handlers check
 * theirs: only our own window, only a string id and a whole number of bytes (and, optionally, of
 * bytes parsed per second); anything else is ignored (an ack has no answer to carry an error).
 */
export function receiveTerminalAcks<Sender>(
  ipc: AckSource<Sender>,
  terminals: { ack(id: string, bytes: number, parseRate?: number): unknown },
  isOwnWindow: (sender: Sender) => boolean,
): () => void {
  const listener = (event: { sender: Sender }, id: unknown, bytes: unknown, parseRate: unknown) => {
    if (!isOwnWindow(event.sender) || typeof id !== 'string' || !Number.isSafeInteger(bytes) || (bytes as number) < 0) return;
    // A rate that is not a positive whole number is left out, not trusted: the window keeps its default size.
    terminals.ack(id, bytes as number, Number.isSafeInteger(parseRate) && (parseRate as number) > 0 ? (parseRate as number) : undefined);
  };
  ipc.on(TERMINAL_ACK_IPC, listener as (event: { sender: Sender }, ...args: unknown[]) => void);
  return () => ipc.removeListener(TERMINAL_ACK_IPC, listener as (event: { sender: Sender }, ...args: unknown[]) => void);
}
