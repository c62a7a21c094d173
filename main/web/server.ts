import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ErrorCodes, MAX_WIRE_BYTES, WireRequestSchema, type WireMessage } from '../../common/contract';
import { contentSecurityPolicy } from '../../common/csp';
import { fail } from '../../common/result';
import type { KeelCore } from '../api/core';
import { dispatchRequest, type Handlers } from '../api/dispatch';
import { serveStatic } from './staticFiles';
import { broadcastTerminalOutput, receiveTerminalFrame } from './terminalFrames';

export interface WebHostOptions {
  core: KeelCore;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Given by tests; otherwise a fresh random token. */
  token?: string;
  /** Where socket and request errors are reported (they never end the host); stderr by default. */
  log?: (message: string) => void;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/**
 * `keel web`: the same core and renderer over loopback. Only 127.0.0.1 is bound; the page and the
 * socket answer only to this host's own names (against DNS rebinding), and the socket only with
 * the token and no foreign Origin.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  if (!existsSync(options.rendererDir)) {
    throw new Error(`The renderer is not built (${options.rendererDir} is missing). Run "npm run build" first.`);
  }
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = createServer();
  const log = options.log ?? ((message: string) => console.error(message));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_WIRE_BYTES });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Nothing a client sends, and no failing socket, may end the host: every error source has a listener.
  server.on('error', (error) => log(`keel web: server error: ${error.message}`));
  sockets.on('error', (error) => log(`keel web: socket server error: ${error.message}`));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own parser refused the request (bad request line, header, or a reset mid-request).
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  const port = (server.address() as AddressInfo).port;
  const ownOrigins = new Set([`http://${HOST}:${port}`, `http://localhost:${port}`]);
  const ownHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);
  const csp = contentSecurityPolicy({ connect: [`ws://${HOST}:${port}`, `ws://localhost:${port}`] });
  const headers = { 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };

  server.on('request', (req, res) => {
    try {
      if (!ownHosts.has(req.headers.host ?? '')) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden: unknown Host');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      const url = parseRequestTarget(req.url);
      if (!url) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request: the path is not a valid URL path.');
        return;
      }
      serveStatic(options.rendererDir, url.pathname, res, headers);
    } catch (error) {
      log(`keel web: request ${JSON.stringify(req.url)} failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    }
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgrading socket without an error listener: a client that resets the
    // connection would otherwise crash the whole host. ws adds its own once it takes the socket.
    socket.on('error', () => socket.destroy());
    let refusal: string | null;
    try {
      refusal = refuseUpgrade(req, token, ownHosts, ownOrigins);
    } catch (error) {
      log(`keel web: upgrade ${JSON.stringify(req.url)} failed: ${(error as Error).message}`);
      refusal = '400 Bad Request';
    }
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => serveClient(ws, options.core, log));
  });

  const stopEvents = options.core.onEvent(({ channel, payload }) => {
    const frame = JSON.stringify({ type: 'event', channel, payload } satisfies WireMessage);
    for (const client of sockets.clients) if (client.readyState === client.OPEN) client.send(frame);
  });
  const stopTerminalOutput = broadcastTerminalOutput(options.core, sockets);

  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        stopEvents();
        stopTerminalOutput();
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Why an upgrade is refused, as an HTTP status line, or null to accept it. */
function refuseUpgrade(req: IncomingMessage, token: string, ownHosts: Set<string>, ownOrigins: Set<string>): string | null {
  const url = parseRequestTarget(req.url);
  if (!url) return '400 Bad Request';
  if (url.pathname !== '/ws') return '404 Not Found';
  if (!ownHosts.has(req.headers.host ?? '')) return '403 Forbidden';
  // Browsers always send Origin on a WebSocket; a foreign one is another site trying to drive Keel.
  const origin = req.headers.origin;
  if (origin !== undefined && !ownOrigins.has(origin)) return '403 Forbidden';
  const given = url.searchParams.get('token') ?? '';
  if (!sameSecret(given, token)) return '401 Unauthorized';
  return null;
}

/**
 * The request target as a URL, or null when it is not an origin-form path: `//[` and the like
 * make `new URL` throw (a browser sends one for `<img src="http://127.0.0.1:PORT//x:99999/a.png">`).
 */
export function parseRequestTarget(target: string | undefined): URL | null {
  const path = target ?? '/';
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  try {
    return new URL(path, 'http://placeholder');
  } catch {
    return null;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

let pages = 0;

function serveClient(ws: WebSocket, core: KeelCore, log: (message: string) => void): void {
  // A frame over maxPayload, bad framing or a reset: ws closes the socket itself (1009 "message too
  // big", 1002 protocol error...) and reports here; without a listener the error would end the host.
  ws.on('error', (error) => log(`keel web: closed a socket: ${error.message}`));
  // Each page acknowledges terminal output for itself: the slowest one holds the shell back.
  const viewer = `page-${++pages}`;
  const handlers: Handlers = {
    ...core.handlers,
    'terminal.ack': ({ id, bytes, parseRate }) => core.terminals.ack(id, bytes, parseRate, viewer),
    'terminal.snapshot': ({ id }) => core.terminals.snapshot(id, viewer),
  };
  ws.on('close', () => core.terminals.leave(viewer));
  const reply = (message: WireMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      receiveTerminalFrame(core, viewer, data, () =>
        reply({ type: 'response', id: null, result: fail(ErrorCodes.badRequest, 'Malformed binary message: the only binary frames are terminal acks.') }),
      );
      return;
    }
    let raw: unknown;
    try {
      raw = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      raw = undefined;
    }
    const frame = WireRequestSchema.safeParse(raw);
    if (!frame.success) {
      const id = typeof raw === 'object' && raw !== null && Number.isInteger((raw as { id?: unknown }).id) ? (raw as { id: number }).id : null;
      reply({
        type: 'response',
        id,
        result: fail(ErrorCodes.badRequest, 'Malformed message: send JSON text like {"type":"request","id":1,"channel":"plan.get","payload":{}}.'),
      });
      return;
    }
    const { id, channel, payload } = frame.data;
    dispatchRequest(handlers, channel, payload)
      .then((result) => reply({ type: 'response', id, result }))
      .catch((error: unknown) => log(`keel web: could not answer ${channel}: ${(error as Error).message}`));
  });
}
