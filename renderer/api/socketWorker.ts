import type { ConnectMessage, FromSocketWorker, ToSocketWorker } from './socketLink';

/*
 * The `keel web` page's WebSocket, in a dedicated worker (see socketOpener): one socket at a
 * time; a `connect` replaces the previous one. Binary frames go to the page transferred.
 */

interface WorkerScope {
  readonly name: string;
  postMessage(message: FromSocketWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToSocketWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;
let socket: WebSocket | undefined;
let connection = 0;

function connect(message: ConnectMessage): void {
  socket?.close();
  connection = message.connection;
  const mine = message.connection;
  const opened = new WebSocket(message.url);
  opened.binaryType = 'arraybuffer';
  opened.addEventListener('open', () => scope.postMessage({ type: 'open', connection: mine }), { once: true });
  opened.addEventListener('message', (frame) => {
    if (frame.data instanceof ArrayBuffer) scope.postMessage({ type: 'message', connection: mine, data: frame.data }, [frame.data]);
    else scope.postMessage({ type: 'message', connection: mine, data: String(frame.data) });
  });
  opened.addEventListener('close', (closed) => scope.postMessage({ type: 'close', connection: mine, code: closed.code }), { once: true });
  socket = opened;
}

/**
 * The first `connect` comes in the worker's name, so that the socket opens as this script starts:
 * a message posted before then reaches the worker only once the page's thread, busy with its
 * first render, hands it over (tens of ms on a busy machine).
 */
function firstConnect(name: string): ConnectMessage | null {
  try {
    const message = JSON.parse(name) as Partial<ConnectMessage>;
    return message.type === 'connect' && typeof message.connection === 'number' && typeof message.url === 'string'
      ? { type: 'connect', connection: message.connection, url: message.url }
      : null;
  } catch {
    return null;
  }
}

const first = firstConnect(scope.name);
if (first) connect(first);

scope.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'connect') connect(message);
  else if (message.type === 'send' && message.connection === connection && socket?.readyState === WebSocket.OPEN) {
    socket.send(message.data);
  }
});
