import { mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIMITS, MAX_WIRE_BYTES } from '../../common/contract';
import { startKeelWeb, tempDir, type KeelWeb } from '../e2e/support/keelWeb';

// A real `keel web` child process (the built out/) fed malformed request lines, garbage upgrades,
// oversized frames, half-open and reset sockets. After every case the same process must still
// serve its page and answer a request on its socket. Needs `npm run build` first.

let dir: ReturnType<typeof tempDir>;
let web: KeelWeb;
let port: number;
let token: string;
const open: Socket[] = [];

beforeAll(async () => {
  dir = tempDir('fuzz');
  const workspace = join(dir.path, 'project');
  mkdirSync(workspace);
  web = await startKeelWeb({ workspace, keelHome: join(dir.path, 'home') });
  const url = new URL(web.url);
  port = Number(url.port);
  token = url.searchParams.get('token')!;
});

afterAll(async () => {
  for (const socket of open) socket.destroy();
  await web?.stop();
  dir?.remove();
});

const host = () => `127.0.0.1:${port}`;

/** Writes raw bytes on a fresh TCP connection; resolves with whatever came back before it closed (or 2 s passed). */
function raw(bytes: string | Buffer, { reset = false } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, 2_000);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(bytes);
      if (reset) socket.resetAndDestroy();
    });
  });
}

/** The page at / over a plain HTTP request: what a person's browser asks for first. */
function page(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { host: host() } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error) => reject(new Error(`keel web no longer answers (${error.message}).\nstderr: ${web.stderr()}`)));
    req.end();
  });
}

type Reply = { type: string; id: number | null; result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } };

/** A socket with the token, as the window opens one. */
function client(): Promise<{ ws: WebSocket; request(channel: string, payload: unknown): Promise<Reply>; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${host()}/ws?token=${token}`);
    const replies = new Map<number, (reply: Reply) => void>();
    let nextId = 1;
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.on('error', (error) => reject(new Error(`keel web no longer accepts a socket (${error.message}).\nstderr: ${web.stderr()}`)));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as Reply;
      if (message.type === 'response' && message.id !== null) replies.get(message.id)?.(message);
    });
    ws.once('open', () =>
      resolve({
        ws,
        closed,
        request: (channel, payload) =>
          new Promise((answer) => {
            const id = nextId++;
            replies.set(id, answer);
            ws.send(JSON.stringify({ type: 'request', id, channel, payload }));
          }),
      }),
    );
    ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused with ${res.statusCode}`)));
  });
}

async function expectAlive(): Promise<void> {
  expect(await page()).toBe(200);
  const c = await client();
  const reply = await c.request('plan.get', {});
  expect(reply.result.ok, JSON.stringify(reply)).toBe(true);
  c.ws.close();
}

const upgradeHeaders = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: ${host()}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`;

/** A small deterministic generator, so a failing case can be replayed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('keel web under malformed input', () => {
  it('answers malformed request lines with 400 (or a refusal) and keeps serving', async () => {
    const lines = [
      'GET //[ HTTP/1.1', // what <img src="http://127.0.0.1:PORT//x:99999/a.png"> makes a browser send
      'GET //x:99999/a.png HTTP/1.1',
      'GET //[::1 HTTP/1.1',
      'GET http://[ HTTP/1.1',
      'GET * HTTP/1.1',
      'GET ?x HTTP/1.1',
      'GET /%E0%A4%A HTTP/1.1',
      'GET /%00 HTTP/1.1',
      'GET /../../../etc/passwd HTTP/1.1',
      'HEAD //[ HTTP/1.1',
      'BREW / HTTP/1.1',
      'GET / HTTP/9.9',
      'GET /\x01\x02 HTTP/1.1',
    ];
    for (const line of lines) {
      const answer = await raw(`${line}\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
      expect(answer, line).toMatch(/^HTTP\/1\.1 [45]\d\d /);
      if (line.includes('//[')) expect(answer, line).toMatch(/^HTTP\/1\.1 400 /);
      await expectAlive();
    }
  });

  it('refuses bad Host headers and garbage headers without ending', async () => {
    const requests = [
      'GET / HTTP/1.1\r\nHost: [\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: \r\n\r\n',
      'GET / HTTP/1.1\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: ${host()}\r\nHost: evil.example\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host()}\r\nX: ${'b'.repeat(100_000)}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host()}\r\nBad Header Without Colon\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: -1\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host()}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      '\x00\x01\x02\x03\xff\xfe garbage \r\n\r\n',
    ];
    for (const request of requests) {
      const answer = await raw(request);
      // Node keeps the first of two Host headers, so that one is served as usual.
      expect(answer === '' || /^HTTP\/1\.1 \d\d\d /.test(answer), JSON.stringify(request.slice(0, 80))).toBe(true);
      await expectAlive();
    }
  });

  it('answers garbage upgrade requests with a refusal and keeps serving', async () => {
    const requests = [
      upgradeHeaders('//['),
      upgradeHeaders('//[/ws?token=x'),
      upgradeHeaders('http://['),
      upgradeHeaders('/ws?token=%E0%A4%A'),
      upgradeHeaders(`/ws?token=${token}`).replace('Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Key: ???'),
      upgradeHeaders(`/ws?token=${token}`).replace('Sec-WebSocket-Version: 13', 'Sec-WebSocket-Version: 99'),
      upgradeHeaders(`/ws?token=${token}`).replace('Upgrade: websocket', 'Upgrade: h2c'),
      upgradeHeaders(`/ws?token=${token}`).replace(`Host: ${host()}`, 'Host: ['),
      upgradeHeaders(`/ws?token=${token}`, 'Origin: \x7f\r\n'),
    ];
    for (const request of requests) {
      const answer = await raw(request);
      expect(answer === '' || /^HTTP\/1\.1 [45]\d\d /.test(answer), JSON.stringify(request.slice(0, 60))).toBe(true);
      if (request.startsWith('GET //[')) expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      // The same garbage from a client that resets at once.
      await raw(request, { reset: true });
      await expectAlive();
    }
  });

  it('survives half-open sockets and resets in the middle of a request', async () => {
    for (let i = 0; i < 20; i++) {
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      socket.write(i % 2 === 0 ? 'GET / HT' : upgradeHeaders(`/ws?token=${token}`).slice(0, 60 + i));
      open.push(socket);
    }
    for (let i = 0; i < 20; i++) await raw(`GET /assets/ HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: 100\r\n\r\nabc`, { reset: true });
    // A socket that completed the upgrade and then half-closes or resets in the middle of a frame.
    const half = await client();
    const underlying = (half.ws as unknown as { _socket: Socket })._socket;
    underlying.write(Buffer.from([0x81, 0xfe, 0x01, 0x00, 1, 2, 3, 4, 5]));
    underlying.end();
    const reset = await client();
    (reset.ws as unknown as { _socket: Socket })._socket.write(Buffer.from([0x81, 0xff]));
    (reset.ws as unknown as { _socket: Socket })._socket.resetAndDestroy();
    await expectAlive();
  });

  it('closes a socket whose frame is over the limit with 1009, refuses an over-long message by name, and keeps serving', async () => {
    // A frame header announcing more than the host accepts: refused before the body arrives.
    const big = await client();
    const announced = Buffer.alloc(14);
    announced[0] = 0x81; // text frame, final
    announced[1] = 0x80 | 127; // masked, 64-bit length follows
    announced.writeBigUInt64BE(BigInt(MAX_WIRE_BYTES + 1), 2);
    (big.ws as unknown as { _socket: Socket })._socket.write(announced);
    expect(await big.closed).toBe(1009);
    await expectAlive();

    // A real frame just over the limit.
    const real = await client();
    real.ws.send(Buffer.alloc(MAX_WIRE_BYTES + 1, 0x20));
    expect(await real.closed).toBe(1009);
    await expectAlive();

    // An ordinary pasted log of 5 MB as a chat message: within the frame limit, over the message limit.
    const paste = await client();
    const reply = await paste.request('task.send', { text: 'log line\n'.repeat((5 * 1024 * 1024) / 9) });
    expect(reply.result.ok).toBe(false);
    expect(reply.result.error?.code).toBe('bad_request');
    expect(reply.result.error?.message).toContain(`at most ${LIMITS.messageChars} characters`);
    const terminal = await paste.request('terminal.input', { id: 't1', data: 'x'.repeat(LIMITS.terminalInputChars + 1) });
    expect(terminal.result.error?.message).toContain(`at most ${LIMITS.terminalInputChars} characters`);
    const plan = await paste.request('plan.edit', { baseVersion: 0, items: [{ content: 'y'.repeat(3 * 1024 * 1024) }] });
    expect(plan.result.error?.code).toBe('bad_request');
    expect(plan.result.error?.message).toContain('Too long');
    paste.ws.close();
    await expectAlive();
  });

  it('survives a bounded run of random request lines and frames', async () => {
    const random = prng(0x6b65656c);
    const pieces = [
      'GET',
      'POST',
      ' ',
      '/',
      '//',
      '[',
      ']',
      ':',
      '%',
      '%zz',
      '?',
      '#',
      '@',
      '\\',
      '..',
      'ws',
      'token=',
      '\x00',
      '\x7f',
      '\xff',
      'HTTP/1.1',
      '\r\n',
      'Host: ',
      host(),
      'Upgrade: websocket',
      'Connection: Upgrade',
    ];
    for (let i = 0; i < 150; i++) {
      let request = '';
      const length = 3 + Math.floor(random() * 12);
      for (let j = 0; j < length; j++) request += pieces[Math.floor(random() * pieces.length)];
      await raw(`${request}\r\n\r\n`, { reset: random() < 0.3 });
      if (i % 25 === 0) await expectAlive();
    }
    const frames = await client();
    for (let i = 0; i < 50; i++) {
      const bytes = Buffer.alloc(1 + Math.floor(random() * 64));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      if (frames.ws.readyState === WebSocket.OPEN) frames.ws.send(random() < 0.5 ? bytes : bytes.toString('latin1'));
    }
    await expectAlive();
    expect(web.stderr()).not.toMatch(/Uncaught|TypeError|RangeError: Max payload/);
  });
});
