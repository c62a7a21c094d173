/** What the `keel web` transport needs of its socket, wherever the socket lives. */
export interface SocketHandlers {
  open(): void;
  /** A text frame (the JSON contract) or a binary one (terminal bytes). */
  message(data: string | ArrayBuffer): void;
  close(code: number): void;
}

export interface SocketLink {
  send(data: string | Uint8Array): void;
  isOpen(): boolean;
}

export type OpenSocket = (url: string, handlers: SocketHandlers) => SocketLink;

/** Messages to the socket worker. */
export type ToSocketWorker = ConnectMessage | { type: 'send'; connection: number; data: string | Uint8Array };
export type ConnectMessage = { type: 'connect'; connection: number; url: string };

/** Messages from the socket worker, each tagged with the connection it is about. */
export type FromSocketWorker =
  | { type: 'open'; connection: number }
  | { type: 'message'; connection: number; data: string | ArrayBuffer }
  | { type: 'close'; connection: number; code: number };

/** RFC 6455's code for a connection lost without a close frame. */
const ABNORMAL_CLOSURE = 1006;

/** A WebSocket on the page's own thread. */
export const openDirectSocket: OpenSocket = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  socket.addEventListener('open', () => handlers.open(), { once: true });
  socket.addEventListener('message', (event) => handlers.message(event.data instanceof ArrayBuffer ? event.data : String(event.data)));
  socket.addEventListener('close', (event) => handlers.close(event.code), { once: true });
  return {
    send: (data) => socket.send(data),
    isOpen: () => socket.readyState === WebSocket.OPEN,
  };
};

/**
 * The WebSocket in a dedicated worker. Receiving costs the browser's thread that reads the
 * socket about as much as xterm.js parsing what arrives (a terminal flood measured ~0.5 s of the
 * page's main thread per 50 MB); in a worker that reading happens beside the parsing, and each
 * frame reaches the page as a transferred buffer, not a copy. Without workers (or when the
 * worker's script cannot load) the socket is the page's own.
 */
export function socketOpener(makeWorker: (first: ConnectMessage) => Worker): OpenSocket {
  let worker: Worker | undefined;
  let failed = false;
  let connection = 0;
  let current: { connection: number; url: string; handlers: SocketHandlers; open: boolean; settled: boolean } | undefined;
  let fallback: SocketLink | undefined;

  const fail = () => {
    failed = true;
    worker?.terminate();
    worker = undefined;
    if (!current || current.settled) return;
    // A worker that never opened its socket: the page opens its own instead, for good.
    if (!current.open) {
      fallback = openDirectSocket(current.url, current.handlers);
      return;
    }
    // A worker that failed with its socket open took the socket with it: say it closed, so the
    // transport reconnects (on the page's own socket from now on).
    current.settled = true;
    current.open = false;
    current.handlers.close(ABNORMAL_CLOSURE);
  };

  return (url, handlers) => {
    fallback = undefined;
    const mine = { connection: ++connection, url, handlers, open: false, settled: false };
    const connect: ConnectMessage = { type: 'connect', connection: mine.connection, url };
    let connecting = false;
    if (!failed && !worker) {
      try {
        // Its first connect goes in its name (see socketWorker.ts), not in a message.
        worker = makeWorker(connect);
        connecting = true;
        worker.addEventListener('message', (event: MessageEvent<FromSocketWorker>) => {
          const message = event.data;
          if (!current || message.connection !== current.connection) return;
          if (message.type === 'open') {
            current.open = true;
            current.handlers.open();
          } else if (message.type === 'message') current.handlers.message(message.data);
          else {
            current.settled = true;
            current.open = false;
            current.handlers.close(message.code);
          }
        });
        worker.addEventListener('error', fail);
      } catch {
        failed = true;
      }
    }
    if (failed || !worker) return openDirectSocket(url, handlers);
    current = mine;
    const post = (message: ToSocketWorker) => worker?.postMessage(message);
    if (!connecting) post(connect);
    return {
      send: (data) => (fallback && current === mine ? fallback.send(data) : post({ type: 'send', connection: mine.connection, data })),
      isOpen: () => (fallback && current === mine ? fallback.isOpen() : mine.open),
    };
  };
}
