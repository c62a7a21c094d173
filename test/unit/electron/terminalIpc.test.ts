import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { TERMINAL_ACK_IPC, TERMINAL_OUTPUT_IPC } from '../../../common/terminalFrames';
import { forwardTerminalOutput, receiveTerminalAcks } from '../../../main/electron/terminalIpc';
import type { TerminalOutputListener } from '../../../main/terminal/terminalManager';
import { terminalBridge } from '../../../preload/terminalBridge';

/*
 * The Electron host's terminal byte path, main's half and the preload's, joined by stand-ins for
 * Electron's IPC: one EventEmitter for each direction, which passes arguments by reference where
 * Electron clones them (a Uint8Array stays a Uint8Array either way: no JSON anywhere).
 */

class OutputSource {
  private readonly listeners = new Set<TerminalOutputListener>();
  onTerminalOutput(listener: TerminalOutputListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(id: string, seq: number, data: Uint8Array): void {
    for (const listener of this.listeners) listener(id, seq, data);
  }
}

/** webContents.send → ipcRenderer.on, and ipcRenderer.send → ipcMain.on with the window as sender. */
function wire(window: object) {
  const toRenderer = new EventEmitter();
  const toMain = new EventEmitter();
  let destroyed = false;
  const contents = {
    send: (channel: string, ...args: unknown[]) => toRenderer.emit(channel, {}, ...args),
    isDestroyed: () => destroyed,
  };
  const ipcRenderer = {
    on: (channel: string, listener: (...args: unknown[]) => void) => toRenderer.on(channel, listener),
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => toRenderer.removeListener(channel, listener),
    send: (channel: string, ...args: unknown[]) => toMain.emit(channel, { sender: window }, ...args),
  };
  const ipcMain = {
    on: (channel: string, listener: (event: { sender: object }, ...args: unknown[]) => void) => toMain.on(channel, listener),
    removeListener: (channel: string, listener: (event: { sender: object }, ...args: unknown[]) => void) => toMain.removeListener(channel, listener),
    /** Something else (another frame, a devtools extension) sending on the ack channel. */
    sendAs: (sender: object, ...args: unknown[]) => toMain.emit(TERMINAL_ACK_IPC, { sender }, ...args),
  };
  return { contents, ipcRenderer, ipcMain, destroy: () => (destroyed = true), toRenderer };
}

describe('the Electron terminal byte path', () => {
  it('carries output as Uint8Arrays with id and sequence to the window, and stops when asked', () => {
    const window = {};
    const { contents, ipcRenderer } = wire(window);
    const source = new OutputSource();
    const stop = forwardTerminalOutput(source, () => contents);
    const bridge = terminalBridge(ipcRenderer);
    const received: Array<[string, number, Uint8Array]> = [];
    const unsubscribe = bridge.on((id, seq, data) => received.push([id, seq, data]));

    // 中 split between two batches, as a pty read can split it.
    const bytes = new TextEncoder().encode('a中b');
    source.emit('t1', 1, bytes.subarray(0, 2));
    source.emit('t1', 2, bytes.subarray(2));
    expect(received.map(([id, seq]) => [id, seq])).toEqual([
      ['t1', 1],
      ['t1', 2],
    ]);
    expect(received.every(([, , data]) => data instanceof Uint8Array)).toBe(true);
    const decoder = new TextDecoder();
    expect(received.map(([, , data]) => decoder.decode(data, { stream: true })).join('')).toBe('a中b');

    unsubscribe();
    source.emit('t1', 3, bytes);
    expect(received).toHaveLength(2);
    const again = bridge.on((id, seq, data) => received.push([id, seq, data]));
    stop();
    source.emit('t1', 4, bytes);
    expect(received).toHaveLength(2);
    again();
  });

  it('sends nothing to a window that is gone or closed', () => {
    const { contents, ipcRenderer, destroy } = wire({});
    const source = new OutputSource();
    let target: typeof contents | null = null;
    forwardTerminalOutput(source, () => target);
    const received: number[] = [];
    terminalBridge(ipcRenderer).on((_id, seq) => received.push(seq));
    source.emit('t1', 1, new Uint8Array([0x61]));
    target = contents;
    destroy();
    source.emit('t1', 2, new Uint8Array([0x62]));
    expect(received).toEqual([]);
  });

  it('acknowledgements from the window reach flow control; from anyone else, or malformed, they do not', () => {
    const window = {};
    const { ipcRenderer, ipcMain } = wire(window);
    const acks: Array<[string, number, number | undefined]> = [];
    const stop = receiveTerminalAcks(ipcMain, { ack: (id, bytes, parseRate) => acks.push([id, bytes, parseRate]) }, (sender) => sender === window);
    const bridge = terminalBridge(ipcRenderer);
    bridge.ack('t1', 65_536);
    bridge.ack('t1', 1024, 3_000_000);
    ipcMain.sendAs({}, 't1', 1_000_000);
    ipcMain.sendAs(window, 't1', -5);
    ipcMain.sendAs(window, 't1', 1.5);
    ipcMain.sendAs(window, 42, 10);
    ipcMain.sendAs(window, 't1', '10');
    // A rate that is not a positive whole number is dropped; the bytes still count.
    ipcMain.sendAs(window, 't1', 7, -1);
    ipcMain.sendAs(window, 't1', 8, 'fast');
    expect(acks).toEqual([
      ['t1', 65_536, undefined],
      ['t1', 1024, 3_000_000],
      ['t1', 7, undefined],
      ['t1', 8, undefined],
    ]);
    stop();
    bridge.ack('t1', 1);
    expect(acks).toHaveLength(4);
  });

  it('drops output that is not (string, number, Uint8Array)', () => {
    const { ipcRenderer, toRenderer } = wire({});
    const received: string[] = [];
    terminalBridge(ipcRenderer).on((id) => received.push(id));
    toRenderer.emit(TERMINAL_OUTPUT_IPC, {}, 't1', 1, 'text, not bytes');
    toRenderer.emit(TERMINAL_OUTPUT_IPC, {}, 't1', '1', new Uint8Array([1]));
    toRenderer.emit(TERMINAL_OUTPUT_IPC, {}, 't1', 1, new Uint8Array([1]));
    expect(received).toEqual(['t1']);
  });
});
