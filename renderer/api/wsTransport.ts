import type { EventChannel, KeelApi, WireMessage } from '../../common/contract';
import type { Result } from '../../common/result';
import { decodeTerminalFrame, encodeAckFrame } from '../../common/terminalFrames';

/**
 * The `keel web` transport: one WebSocket to the loopback host, requests matched to responses by
 * id. When the socket drops, pending requests fail with a clear error and it reconnects.
 */
export function createWsApi(url: string): KeelApi {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const outputListeners = new Set<(id: string, seq: number, data: Uint8Array) => void>();
  let nextId = 1;
  let socket: WebSocket;
  let ready: Promise<void>;

  const connect = () => {
    socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    ready = new Promise((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
    socket.addEventListener('message', (event) => {
      if (event.data instanceof ArrayBuffer) {
        const frame = decodeTerminalFrame(new Uint8Array(event.data));
        if (frame?.kind === 'output') for (const listener of outputListeners) listener(frame.id, frame.seq, frame.data);
        return;
      }
      const message = JSON.parse(String(event.data)) as WireMessage;
      if (message.type === 'response' && message.id !== null) {
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      } else if (message.type === 'event') {
        for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const resolve of pending.values()) {
        resolve({ ok: false, error: { code: 'disconnected', message: 'Lost the connection to Keel. Is `keel web` still running?' } });
      }
      pending.clear();
      setTimeout(connect, 1000);
    });
  };
  connect();

  return {
    async request(channel, input) {
      await ready;
      const id = nextId++;
      // Between a drop and the reconnect, `ready` is the old socket's: a send there is lost and
      // would leave the caller waiting for ever.
      if (socket.readyState !== WebSocket.OPEN) {
        return { ok: false, error: { code: 'disconnected', message: 'Lost the connection to Keel. Is `keel web` still running?' } };
      }
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        socket.send(JSON.stringify({ type: 'request', id, channel, payload: input }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    terminalOutput: {
      on(listener) {
        outputListeners.add(listener);
        return () => outputListeners.delete(listener);
      },
      ack(id, bytes) {
        // An ack lost with a dropped socket is not missed: attaching again starts flow control over.
        if (socket.readyState === WebSocket.OPEN) socket.send(encodeAckFrame(id, bytes));
      },
    },
  };
}
