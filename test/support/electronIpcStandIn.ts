import { EventEmitter } from 'node:events';
import type { IpcMain, WebContents } from 'electron';
import type { KeelCore } from '../../main/api/core';
import { bindIpc, forwardEvents } from '../../main/electron/ipc';
import { forwardTerminalOutput, receiveTerminalAcks } from '../../main/electron/terminalIpc';
import { createKeelBridge, type BridgeIpc, type KeelIpcBridge } from '../../preload/bridge';

/**
 * Electron IPC between one window and main, without Electron: `invoke` reaches the handlers main
 * registered with `ipcMain.handle`, and main's `webContents.send` reaches the renderer's `on`.
 * Only the transport is a stand-in; the bridge (preload/bridge.ts) and main's binding
 * (main/electron/ipc.ts) are the real ones.
 */
export class IpcStandIn implements BridgeIpc {
  readonly invoked: string[] = [];
  readonly renderer = new EventEmitter();
  /** What the renderer `send`s to main (terminal acks), heard by `ipcMain.on`. */
  readonly main = new EventEmitter();
  readonly handlers = new Map<string, (event: { sender: unknown }, payload: unknown) => unknown>();
  /** The window's webContents as main sees it. */
  readonly sender = {
    isDestroyed: () => false,
    send: (channel: string, ...args: unknown[]) => this.renderer.emit(channel, { sender: 'main' }, ...args),
  };
  readonly ipcMain = {
    handle: (channel: string, handler: (event: { sender: unknown }, payload: unknown) => unknown) => void this.handlers.set(channel, handler),
    removeHandler: (channel: string) => void this.handlers.delete(channel),
    on: (channel: string, listener: (event: { sender: unknown }, ...args: unknown[]) => void) => void this.main.on(channel, listener),
    removeListener: (channel: string, listener: (event: { sender: unknown }, ...args: unknown[]) => void) => void this.main.removeListener(channel, listener),
  };

  async invoke(channel: string, payload: unknown): Promise<unknown> {
    this.invoked.push(channel);
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
    return handler({ sender: this.sender }, payload);
  }
  send(channel: string, ...args: unknown[]): void {
    this.main.emit(channel, { sender: this.sender }, ...args);
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
    this.renderer.on(channel, listener);
    return this;
  }
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
    this.renderer.removeListener(channel, listener);
    return this;
  }

  /** Binds `core` as main/index.ts does; returns the function that unbinds. */
  bind(core: KeelCore): () => void {
    const unbind = bindIpc(this.ipcMain as unknown as IpcMain, core, (sender) => sender === (this.sender as unknown as WebContents));
    const unforward = forwardEvents(core, () => this.sender as unknown as WebContents);
    const unforwardOutput = forwardTerminalOutput(core, () => this.sender);
    const unack = receiveTerminalAcks(this.ipcMain, core.terminals, (sender) => sender === this.sender);
    return () => {
      unack();
      unforwardOutput();
      unforward();
      unbind();
    };
  }

  /** The page's keelIpc, as the preload makes it. */
  bridge(): KeelIpcBridge {
    return createKeelBridge(this);
  }
}
