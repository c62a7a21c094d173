import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { type ClientOptions } from 'ws';
import type { PlanSnapshot } from '../../common/contract';
import { validatePlan } from '../../common/plan/validate';
import type { KeelError } from '../../common/result';
import { KeelCore } from '../../main/api/core';
import { startWebHost, type WebHost } from '../../main/web/server';

// The loopback WebSocket host with a real core, real files and real sockets.

type Reply = { type: 'response'; id: number | null; result: { ok: true; value: unknown } | { ok: false; error: KeelError } };
type EventFrame = { type: 'event'; channel: string; payload: unknown };
type Frame = Reply | EventFrame;

/** A `ws` client that keeps every frame it receives and hands them out by predicate. */
class Client {
  private nextId = 1;
  private readonly frames: Frame[] = [];
  private readonly waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      const waiter = this.waiters.find((w) => w.match(frame));
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      } else {
        this.frames.push(frame);
      }
    });
  }

  next<F extends Frame>(match: (f: Frame) => boolean, timeoutMs = 5_000): Promise<F> {
    const index = this.frames.findIndex(match);
    if (index >= 0) return Promise.resolve(this.frames.splice(index, 1)[0] as F);
    return new Promise<F>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f as F);
        },
      });
    });
  }

  /** Frames received but not yet taken. */
  pending(): Frame[] {
    return [...this.frames];
  }

  request(channel: string, payload: unknown): Promise<Reply> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type: 'request', id, channel, payload }));
    return this.next<Reply>((f) => f.type === 'response' && f.id === id);
  }

  /** Sends anything at all and waits for the reply with `replyId` (null when the frame had no usable id). */
  raw(data: string | Buffer, replyId: number | null = null): Promise<Reply> {
    this.ws.send(data);
    return this.next<Reply>((f) => f.type === 'response' && f.id === replyId);
  }

  event(channel: string, match: (payload: unknown) => boolean = () => true): Promise<EventFrame> {
    return this.next<EventFrame>((f) => f.type === 'event' && f.channel === channel && match(f.payload));
  }
}

type Attempt = { status: 'open'; client: Client } | { status: number };

/** Opens a socket; resolves with the client, or with the HTTP status of the refused upgrade. */
function attempt(url: string, options: ClientOptions = {}): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    let settled = false;
    ws.once('open', () => {
      settled = true;
      resolve({ status: 'open', client: new Client(ws) });
    });
    ws.once('unexpected-response', (req, res) => {
      settled = true;
      res.resume();
      req.destroy();
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.on('error', (error) => {
      if (!settled) reject(error);
    });
  });
}

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw GET: the path goes on the wire exactly as given (fetch would normalise `..` away). */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the error code of a TCP connection that should fail, or 'connected'. */
function tcpConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const SECRET = 'this-must-never-be-served';

let tmp: string;
let workspace: string;
let core: KeelCore;
let host: WebHost;
let clients: Client[];

async function open(options: ClientOptions = {}, query = `?token=${host.token}`): Promise<Client> {
  const result = await attempt(`ws://127.0.0.1:${host.port}/ws${query}`, options);
  if (result.status !== 'open') throw new Error(`The socket was refused with ${result.status}`);
  clients.push(result.client);
  return result.client;
}

function expectError(reply: Reply, code: string): KeelError {
  expect(reply.result.ok, JSON.stringify(reply)).toBe(false);
  const { error } = reply.result as { ok: false; error: KeelError };
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(20);
  return error;
}

function value<T>(reply: Reply): T {
  expect(reply.result.ok, JSON.stringify(reply)).toBe(true);
  return (reply.result as { ok: true; value: T }).value;
}

beforeEach(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'keel-webhost-'));
  workspace = join(tmp, 'project');
  const rendererDir = join(tmp, 'renderer');
  mkdirSync(workspace);
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Keel</title><div id="root"></div>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("keel");');
  // Files a traversal would reach: beside the renderer, and in a sibling whose name starts the same.
  writeFileSync(join(tmp, 'secret.txt'), SECRET);
  mkdirSync(join(tmp, 'renderer-other'));
  writeFileSync(join(tmp, 'renderer-other', 'secret.txt'), SECRET);

  core = new KeelCore({ dataDir: join(tmp, 'data'), host: 'web', version: '0.0.0-test' });
  const opened = core.openWorkspace(workspace);
  expect(opened.ok).toBe(true);
  host = await startWebHost({ core, rendererDir, port: 0 });
  clients = [];
});

afterEach(async () => {
  for (const client of clients) client.ws.terminate();
  await host?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('who may connect', () => {
  it('refuses a socket without a token', async () => {
    expect(await attempt(`ws://127.0.0.1:${host.port}/ws`)).toEqual({ status: 401 });
    expect(await attempt(`ws://127.0.0.1:${host.port}/ws?token=`)).toEqual({ status: 401 });
  });

  it('refuses a wrong token, also one of the right length', async () => {
    expect(await attempt(`ws://127.0.0.1:${host.port}/ws?token=wrong`)).toEqual({ status: 401 });
    const sameLength = host.token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await attempt(`ws://127.0.0.1:${host.port}/ws?token=${sameLength}`)).toEqual({ status: 401 });
  });

  it('refuses a foreign Origin even with the right token', async () => {
    const url = `ws://127.0.0.1:${host.port}/ws?token=${host.token}`;
    expect(await attempt(url, { origin: 'http://evil.example' })).toEqual({ status: 403 });
    expect(await attempt(url, { origin: 'null' })).toEqual({ status: 403 });
    // Same host, other port: another local web page.
    expect(await attempt(url, { origin: 'http://127.0.0.1:1' })).toEqual({ status: 403 });
  });

  it('refuses a wrong Host header (DNS rebinding) even with the right token', async () => {
    const url = `ws://127.0.0.1:${host.port}/ws?token=${host.token}`;
    expect(await attempt(url, { headers: { host: `evil.example:${host.port}` } })).toEqual({ status: 403 });
    expect(await attempt(url, { headers: { host: 'evil.example' } })).toEqual({ status: 403 });
    const page = await get(host.port, '/', { host: `evil.example:${host.port}` });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('<div id="root">');
  });

  it('survives clients that reset the connection while being refused', async () => {
    // Before the fix, one ECONNRESET on a refused upgrade was an uncaught exception: the host died.
    for (let i = 0; i < 100; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: host.port }, () => {
          socket.write(
            `GET /ws?token=wrong HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
          );
          socket.resetAndDestroy();
          setTimeout(resolve, 2);
        });
        socket.on('error', () => resolve());
      });
    }
    await new Promise((r) => setTimeout(r, 100));
    const client = await open();
    expect(value<PlanSnapshot>(await client.request('plan.get', {})).version).toBe(0);
  });

  it('only upgrades on /ws', async () => {
    expect(await attempt(`ws://127.0.0.1:${host.port}/other?token=${host.token}`)).toEqual({ status: 404 });
  });

  it('accepts the right token with its own Origin, or with none', async () => {
    const own = await open({ origin: `http://127.0.0.1:${host.port}` });
    expect(value<{ host: string }>(await own.request('app.info', {})).host).toBe('web');
    const named = await open({ origin: `http://localhost:${host.port}`, headers: { host: `localhost:${host.port}` } });
    expect(value<{ path: string } | null>(await named.request('workspace.current', {}))?.path).toBeTruthy();
    const noOrigin = await open();
    expect(value<PlanSnapshot>(await noOrigin.request('plan.get', {})).version).toBe(0);
  });
});

describe('malformed messages', () => {
  it('answers each with an error that says what to send, and keeps serving', async () => {
    const client = await open();
    const alive = async () => expect(value<PlanSnapshot>(await client.request('plan.get', {})).items).toEqual([]);

    const notJson = expectError(await client.raw('this is not json'), 'bad_request');
    expect(notJson.message).toContain('"type":"request"');
    await alive();

    expectError(await client.raw('[1, 2, 3]'), 'bad_request');
    expectError(await client.raw('42'), 'bad_request');
    expectError(await client.raw('null'), 'bad_request');
    expectError(await client.raw(Buffer.from([0xff, 0x00, 0x01])), 'bad_request');
    await alive();

    // A frame that is JSON but not a request; its id, when usable, is echoed back.
    expectError(await client.raw(JSON.stringify({ type: 'request', id: 7 }), 7), 'bad_request');
    expectError(await client.raw(JSON.stringify({ type: 'response', id: 8, channel: 'plan.get', payload: {} }), 8), 'bad_request');
    expectError(await client.raw(JSON.stringify({ type: 'request', id: 'nine', channel: 'plan.get', payload: {} })), 'bad_request');
    expectError(await client.raw(JSON.stringify({ type: 'request', id: 1.5, channel: 'plan.get', payload: {} })), 'bad_request');
    await alive();

    for (const channel of ['fs.readFile', '__proto__', 'constructor', 'toString', 'plan.changed']) {
      const unknown = expectError(await client.request(channel, {}), 'unknown_channel');
      expect(unknown.message).toContain(JSON.stringify(channel));
    }
    await alive();

    const notAList = expectError(await client.request('plan.edit', { baseVersion: 0, items: 'x' }), 'bad_request');
    expect(notAList.message).toContain('plan.edit');
    expect(notAList.message).toContain('items');
    const negative = expectError(await client.request('plan.edit', { baseVersion: -1, items: [] }), 'bad_request');
    expect(negative.message).toContain('baseVersion');
    const fraction = expectError(await client.request('plan.edit', { baseVersion: 0.5, items: [] }), 'bad_request');
    expect(fraction.message).toContain('baseVersion');
    const missing = expectError(await client.request('plan.edit', { items: [] }), 'bad_request');
    expect(missing.message).toContain('baseVersion');
    const extra = expectError(await client.request('plan.edit', { baseVersion: 0, items: [], sneaky: true }), 'bad_request');
    expect(extra.message).toContain('sneaky');
    const wrongItem = expectError(await client.request('plan.edit', { baseVersion: 0, items: [{ content: 5 }] }), 'bad_request');
    expect(wrongItem.message).toContain('items.0.content');
    expectError(await client.request('plan.get', { unexpected: 1 }), 'bad_request');
    expectError(await client.request('workspace.open', { path: '' }), 'bad_request');
    expectError(await client.request('workspace.open', 'not an object'), 'bad_request');

    await alive();
    // Nothing above changed the plan.
    expect(core.currentSession?.plan.version).toBe(0);
  });
});

describe('the plan over the socket', () => {
  const items = [
    { content: 'Read the existing code', status: 'completed' },
    { content: 'Write hello.py', status: 'in_progress', activeForm: 'Writing hello.py' },
    { content: 'Run it and check the output' },
  ];

  it("broadcasts one client's edit to another as plan.changed", async () => {
    const editor = await open();
    const watcher = await open();
    const changed = watcher.event('plan.changed', (p) => (p as PlanSnapshot).version === 1);
    const accepted = value<PlanSnapshot>(await editor.request('plan.edit', { baseVersion: 0, items }));
    expect(accepted).toMatchObject({ version: 1, source: 'user' });
    expect(accepted.items.map((i) => i.status)).toEqual(['completed', 'in_progress', 'pending']);
    const event = await changed;
    expect(event.payload).toEqual(accepted);
    // The editor hears about it too, so every open board shows the same plan.
    expect((await editor.event('plan.changed')).payload).toEqual(accepted);
  });

  it('refuses a stale edit with plan_conflict and leaves the plan as it was', async () => {
    const a = await open();
    const b = await open();
    const first = value<PlanSnapshot>(await a.request('plan.edit', { baseVersion: 0, items }));
    const stale = expectError(await b.request('plan.edit', { baseVersion: 0, items: [{ content: 'Something else entirely' }] }), 'plan_conflict');
    expect(stale.message).toContain('version 0');
    expect(stale.message).toContain('version 1');
    expect(stale.details).toEqual({ current: first });
    expect(value<PlanSnapshot>(await b.request('plan.get', {}))).toEqual(first);
    expect(core.currentSession?.plan.history).toHaveLength(1);
  });

  it("refuses an invalid plan with plan_invalid and the validator's own message", async () => {
    const client = await open();
    const before = value<PlanSnapshot>(await client.request('plan.edit', { baseVersion: 0, items }));
    const twoInProgress = [
      { content: 'Write hello.py', status: 'in_progress' },
      { content: 'Run it and check the output', status: 'in_progress' },
    ];
    const expected = validatePlan(twoInProgress, before.items);
    expect(expected.ok).toBe(false);
    const error = expectError(await client.request('plan.edit', { baseVersion: 1, items: twoInProgress }), 'plan_invalid');
    expect(error.message).toBe(expected.ok ? '' : expected.error.message);
    expect(error.message).toContain('in_progress');
    expect(error.details).toEqual({ problems: expected.ok ? [] : expected.error.problems });
    expect(value<PlanSnapshot>(await client.request('plan.get', {}))).toEqual(before);
    // No plan.changed went out for the refused edit.
    await new Promise((r) => setTimeout(r, 100));
    expect(client.pending().filter((f) => f.type === 'event' && (f.payload as PlanSnapshot).version > 1)).toEqual([]);
  });
});

describe('static files', () => {
  it('serves index.html at / with a Content-Security-Policy', async () => {
    const page = await get(host.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const script = await get(host.port, '/assets/app.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect((await get(host.port, '/assets/missing.js')).status).toBe(404);
    expect((await get(host.port, '/', {}, 'POST')).status).toBe(405);
  });

  it.each([
    '/../secret.txt',
    '/../../../../../../etc/passwd',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/%2E%2E%2Fsecret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/..%2frenderer-other%2fsecret.txt',
    '/..%5csecret.txt',
    '/%252e%252e%252fsecret.txt',
    '/secret.txt%00.html',
    '/%',
    '//etc/passwd',
    '/package.json',
  ])('does not leak files outside the renderer: %s', async (path) => {
    const answer = await get(host.port, path);
    expect(answer.status).not.toBe(200);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.body).not.toContain('root:');
    expect(answer.body).not.toContain('"name"');
  });
});

describe('the listening address', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(await tcpConnect('127.0.0.1', host.port)).toBe('connected');
    // Another loopback address, IPv6 loopback, and every address of this machine's other interfaces.
    const elsewhere = ['127.0.0.2', '::1'];
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) if (!address.internal) elsewhere.push(address.address);
    }
    for (const address of elsewhere) {
      expect(await tcpConnect(address, host.port), address).not.toBe('connected');
    }
  });
});
