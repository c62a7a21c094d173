import type { EventChannel, KeelApi, WireMessage } from '../../common/contract';
import { Emitter } from '../../common/emitter';
import { ErrorCodes } from '../../common/errorCodes';
import { MAX_WIRE_BYTES } from '../../common/limits';
import type { Result } from '../../common/result';
import { decodeTerminalFrame, encodeAckFrame } from '../../common/terminalFrames';
import { openDirectSocket, type OpenSocket, type SocketLink } from './socketLink';

const TOKEN_KEY = 'keel.token';

/**
 * The secret token of `keel web`: taken from the address `keel web` printed, then moved out of
 * the address bar (and so out of the tab's history, bookmarks and screen shares) into this tab's
 * sessionStorage, where a reload of the same tab finds it again. A new tab needs the printed URL.
 */
export function takePageToken(
  location: Pick<Location, 'href'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): string {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  if (given === null) return storage.getItem(TOKEN_KEY) ?? '';
  try {
    storage.setItem(TOKEN_KEY, given);
  } catch {
    // Storage can be disabled; then a reload needs the printed URL again, but the token still leaves the address bar.
  }
  url.searchParams.delete('token');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return given;
}

/** Close code of a frame over the host's limit (RFC 6455 "message too big"). */
const MESSAGE_TOO_BIG = 1009;

/**
 * The `keel web` transport: one WebSocket to the loopback host (see socketLink for where it
 * lives), requests matched to responses by id. When the socket drops, pending requests fail with
 * a clear error and it reconnects.
 */
export function createWsApi(url: string, openSocket: OpenSocket = openDirectSocket): KeelApi {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const events = new Map<EventChannel, Emitter<[payload: unknown]>>();
  const output = new Emitter<[id: string, seq: number, data: Uint8Array]>();
  let nextId = 1;
  let link: SocketLink;
  let ready: Promise<void>;

  const connect = () => {
    let opened: () => void = () => undefined;
    ready = new Promise((resolve) => (opened = resolve));
    link = openSocket(url, {
      open: () => opened(),
      message: (data) => {
        if (data instanceof ArrayBuffer) {
          const frame = decodeTerminalFrame(new Uint8Array(data));
          if (frame?.kind === 'output') output.fire(frame.id, frame.seq, frame.data);
          return;
        }
        const message = JSON.parse(data) as WireMessage;
        if (message.type === 'response' && message.id !== null) {
          pending.get(message.id)?.(message.result);
          pending.delete(message.id);
        } else if (message.type === 'event') {
          events.get(message.channel)?.fire(message.payload);
        }
      },
      close: (code) => {
        const error =
          code === MESSAGE_TOO_BIG
            ? { code: ErrorCodes.tooLarge, message: `Keel refused a message larger than ${MAX_WIRE_BYTES} bytes and reconnected. Send less at once.` }
            : { code: ErrorCodes.disconnected, message: 'Lost the connection to Keel. Is `keel web` still running?' };
        for (const resolve of pending.values()) resolve({ ok: false, error });
        pending.clear();
        setTimeout(connect, 1000);
      },
    });
  };
  connect();

  return {
    async request(channel, input) {
      await ready;
      const id = nextId++;
      // Between a drop and the reconnect, `ready` is the old socket's: a send there is lost and
      // would leave the caller waiting for ever.
      if (!link.isOpen()) {
        return { ok: false, error: { code: ErrorCodes.disconnected, message: 'Lost the connection to Keel. Is `keel web` still running?' } };
      }
      const frame = JSON.stringify({ type: 'request', id, channel, payload: input });
      // The host closes a socket sent a frame over its limit: refuse here, with the reason, instead.
      if (frame.length > MAX_WIRE_BYTES / 3 && new TextEncoder().encode(frame).length > MAX_WIRE_BYTES) {
        return {
          ok: false,
          error: { code: ErrorCodes.tooLarge, message: `This request is larger than the ${MAX_WIRE_BYTES} bytes Keel accepts at once. Send less at once.` },
        };
      }
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        link.send(frame);
      });
    },
    on(event, listener) {
      const emitter = events.get(event) ?? new Emitter();
      events.set(event, emitter);
      return emitter.on(listener as (payload: unknown) => void);
    },
    terminalOutput: {
      on: (listener) => output.on(listener),
      ack(id, bytes, parseRate) {
        // An ack lost with a dropped socket is not missed: attaching again starts flow control over.
        if (link.isOpen()) link.send(encodeAckFrame(id, bytes, parseRate));
      },
    },
  };
}
