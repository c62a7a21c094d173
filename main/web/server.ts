import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ErrorCodes, WireRequestSchema, type WireMessage } from '../../common/contract';
import { fail } from '../../common/result';
import type { KeelCore } from '../api/core';
import { dispatchRequest } from '../api/dispatch';
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
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

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
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const ownOrigins = new Set([`http://${HOST}:${port}`, `http://localhost:${port}`]);
  const ownHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ws://${HOST}:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
  const headers = { 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };

  server.on('request', (req, res) => {
    if (!ownHosts.has(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden: unknown Host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    serveStatic(options.rendererDir, new URL(req.url ?? '/', `http://${HOST}`).pathname, res, headers);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = refuseUpgrade(req, token, ownHosts, ownOrigins);
    if (refusal) {
      // Node leaves an upgrading socket without an error listener: a client that resets the
      // connection while it is refused would otherwise crash the whole host.
      socket.on('error', () => socket.destroy());
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => serveClient(ws, options.core));
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
  const url = new URL(req.url ?? '/', 'http://placeholder');
  if (url.pathname !== '/ws') return '404 Not Found';
  if (!ownHosts.has(req.headers.host ?? '')) return '403 Forbidden';
  // Browsers always send Origin on a WebSocket; a foreign one is another site trying to drive Keel.
  const origin = req.headers.origin;
  if (origin !== undefined && !ownOrigins.has(origin)) return '403 Forbidden';
  const given = url.searchParams.get('token') ?? '';
  if (!sameSecret(given, token)) return '401 Unauthorized';
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function serveClient(ws: WebSocket, core: KeelCore): void {
  const reply = (message: WireMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      receiveTerminalFrame(core, data, () => reply({ type: 'response', id: null, result: fail(ErrorCodes.badRequest, 'Malformed binary message: the only binary frames are terminal acks.') }));
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
    void dispatchRequest(core.handlers, channel, payload).then((result) => reply({ type: 'response', id, result }));
  });
}
