import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stripAnsi from 'strip-ansi';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeTerminalFrame, encodeAckFrame, encodeOutputFrame } from '../../../common/terminalFrames';
import { KeelCore } from '../../../main/api/core';
import { FLOW_HIGH_WATERMARK_BYTES, flowWindowFor } from '../../../main/terminal/flowControl';
import { OUTPUT_BATCH_MAX_BYTES } from '../../../main/terminal/outputBatcher';
import { startWebHost, type WebHost } from '../../../main/web/server';
import { killProcessesWith, processesWith, uniqueMarker } from '../../unit/tools/bash/support';
import { PROMPT, isolateShellEnvironment, sleep, waitFor } from './support';

// Terminal output over `keel web` as binary frames, on loopback with a real core, real shells and
// a real `ws` client standing in for the page.

const restoreEnvironment = isolateShellEnvironment();
afterAll(restoreEnvironment);

/** One read of the pty can land after the high mark is crossed and before the pause. */
const ONE_READ = 65_536;

type Reply = { type: 'response'; id: number | null; result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } };

/** The page's side: JSON requests, and the binary output frames kept per tab (acknowledged unless told not to). */
class Page {
  autoAck = true;
  readonly frames: Array<{ id: string; seq: number; data: Uint8Array }> = [];
  private nextId = 1;
  private readonly replies = new Map<number | null, (reply: Reply) => void>();
  private readonly acked = new Map<string, number>();

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) {
        const reply = JSON.parse(data.toString()) as Reply;
        if (reply.type === 'response') this.replies.get(reply.id)?.(reply);
        return;
      }
      const frame = decodeTerminalFrame(new Uint8Array(data));
      if (frame?.kind !== 'output') throw new Error('the host sent a binary frame that is not output');
      this.frames.push(frame);
      if (this.autoAck) this.ackAll(frame.id);
    });
  }

  request(channel: string, payload: unknown): Promise<Reply> {
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve) => this.replies.set(id, resolve));
    this.ws.send(JSON.stringify({ type: 'request', id, channel, payload }));
    return reply;
  }

  /** Sends a binary message and waits for the answer to a malformed one. */
  rawBinary(data: Uint8Array): Promise<Reply> {
    const reply = new Promise<Reply>((resolve) => this.replies.set(null, resolve));
    this.ws.send(data, { binary: true });
    return reply;
  }

  bytes(id: string): number {
    return this.frames.filter((frame) => frame.id === id).reduce((sum, frame) => sum + frame.data.length, 0);
  }

  /** Everything the tab printed, decoded as one stream (a character split between frames comes out whole). */
  text(id: string): string {
    const decoder = new TextDecoder();
    return this.frames
      .filter((frame) => frame.id === id)
      .map((frame) => decoder.decode(frame.data, { stream: true }))
      .join('');
  }

  readable(id: string): string {
    return stripAnsi(this.text(id)).replace(/\r/g, '');
  }

  ackAll(id: string, parseRate?: number): void {
    const bytes = this.bytes(id) - (this.acked.get(id) ?? 0);
    if (bytes <= 0 && parseRate === undefined) return;
    this.acked.set(id, this.bytes(id));
    this.ws.send(encodeAckFrame(id, bytes, parseRate), { binary: true });
  }

  async create(): Promise<string> {
    const created = await this.request('terminal.create', { cols: 100, rows: 30 });
    if (!created.result.ok) throw new Error(created.result.error?.message);
    return (created.result.value as { id: string }).id;
  }

  async type(id: string, data: string): Promise<void> {
    const sent = await this.request('terminal.input', { id, data });
    if (!sent.result.ok) throw new Error(sent.result.error?.message);
  }
}

let core: KeelCore;
let host: WebHost;
let tmp: string;
let page: Page;
const markers: string[] = [];

async function openPage(): Promise<Page> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return new Page(ws);
}

beforeEach(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-frames-')));
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  mkdirSync(join(tmp, 'renderer'));
  core = new KeelCore({ dataDir: join(tmp, 'data'), host: 'web', version: 'test' });
  const opened = core.openWorkspace(workspace);
  if (!opened.ok) throw new Error(opened.error.message);
  host = await startWebHost({ core, rendererDir: join(tmp, 'renderer'), port: 0 });
  page = await openPage();
});

afterEach(async () => {
  page.ws.close();
  await host.close();
  await core.dispose();
  for (const marker of markers.splice(0)) killProcessesWith(marker);
  rmSync(tmp, { recursive: true, force: true });
});

describe('terminal frames', () => {
  it('encode and decode; anything else binary is refused', () => {
    const data = new TextEncoder().encode('héllo');
    const output = decodeTerminalFrame(encodeOutputFrame('t12', 4_000_000_000, data));
    expect(output).toEqual({ kind: 'output', id: 't12', seq: 4_000_000_000, data });
    expect(decodeTerminalFrame(encodeAckFrame('t1', 65_536))).toEqual({ kind: 'ack', id: 't1', bytes: 65_536 });
    // The window's parse rate rides on the ack; a rate of 0 is none, and an ack of any other length is refused.
    expect(decodeTerminalFrame(encodeAckFrame('t1', 65_536, 3_000_000))).toEqual({ kind: 'ack', id: 't1', bytes: 65_536, parseRate: 3_000_000 });
    expect(encodeAckFrame('t1', 1, 0)).toEqual(encodeAckFrame('t1', 1));
    expect(decodeTerminalFrame(new Uint8Array([2, 2, 0x74, 0x31, 0, 0, 0, 1, 0, 0, 0, 0]))).toEqual({ kind: 'ack', id: 't1', bytes: 1 });
    expect(decodeTerminalFrame(new Uint8Array([2, 2, 0x74, 0x31, 0, 0, 0, 1, 0, 0]))).toBeNull();
    expect(decodeTerminalFrame(new Uint8Array([2, 2, 0x74, 0x31, 0, 0]))).toBeNull();
    expect(decodeTerminalFrame(new Uint8Array([9, 2, 0x74, 0x31, 0, 0, 0, 1]))).toBeNull();
    expect(decodeTerminalFrame(new Uint8Array([2, 2, 0x74, 0x0a, 0, 0, 0, 1]))).toBeNull();
    expect(() => encodeAckFrame('', 1)).toThrow(/cannot be framed/);
  });
});

describe('terminal output over keel web', () => {
  it('arrives as numbered binary frames; a character split between two reads is split between frames and decodes whole', { timeout: 30_000 }, async () => {
    const id = await page.create();
    await waitFor(() => page.readable(id).includes(PROMPT), 'the prompt');
    const from = page.frames.length;
    await page.type(id, String.raw`printf 'x\xe4\xb8'; sleep 0.5; printf '\xad\xe6\x96\x87-split\n'` + '\r');
    await waitFor(() => page.readable(id).includes('x中文-split\n'), 'the split characters, whole');
    // The lead byte and its continuation came in different frames: nothing was decoded in main.
    const lead = page.frames.findIndex((frame, index) => index >= from && frame.data.at(-1) === 0xb8);
    expect(lead).toBeGreaterThanOrEqual(from);
    expect(page.frames.slice(lead + 1).some((frame) => frame.data[0] === 0xad)).toBe(true);
    const seqs = page.frames.filter((frame) => frame.id === id).map((frame) => frame.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });

  it('holds a flood the page does not acknowledge; Ctrl-C still lands; binary acks let it resume', { timeout: 60_000 }, async () => {
    const id = await page.create();
    await waitFor(() => page.readable(id).includes(PROMPT), 'the prompt');
    page.autoAck = false;
    page.ackAll(id);
    const start = page.bytes(id);
    const marker = uniqueMarker();
    markers.push(marker);
    await page.type(id, `yes flood.${marker}\r`);
    await waitFor(() => page.bytes(id) - start > FLOW_HIGH_WATERMARK_BYTES, 'the flood to pass the high watermark');
    let held = page.bytes(id);
    for (let settled = false; !settled;) {
      await sleep(1000);
      settled = page.bytes(id) === held;
      held = page.bytes(id);
    }
    expect(held - start).toBeLessThanOrEqual(FLOW_HIGH_WATERMARK_BYTES + ONE_READ + OUTPUT_BATCH_MAX_BYTES);
    expect(processesWith(`flood.${marker}`)).not.toEqual([]);

    page.ackAll(id);
    await waitFor(() => page.bytes(id) > held + FLOW_HIGH_WATERMARK_BYTES / 4, 'the flood to resume after the ack');

    // Paused again (nothing acknowledged since): the keystroke goes through all the same.
    await sleep(1000);
    await page.type(id, '\x03');
    await waitFor(() => processesWith(`flood.${marker}`).length === 0, '`yes` to die of Ctrl-C while output is paused', 10_000, 250);
    page.autoAck = true;
    page.ackAll(id);
    await waitFor(() => page.readable(id).endsWith(PROMPT), 'the prompt after the flood', 15_000);
  });

  it(
    "holds a flood at the window's reported parse rate: a slow page gets a fraction of a second of output in flight, not megabytes",
    { timeout: 60_000 },
    async () => {
      const id = await page.create();
      await waitFor(() => page.readable(id).includes(PROMPT), 'the prompt');
      page.autoAck = false;
      // A page that parses 1 MB a second: FLOW_WINDOW_MS of that is 150 KB.
      const rate = 1_000_000;
      page.ackAll(id, rate);
      const start = page.bytes(id);
      const marker = uniqueMarker();
      markers.push(marker);
      await page.type(id, `yes flood.${marker}\r`);
      await waitFor(() => page.bytes(id) - start > flowWindowFor(rate), 'the flood to pass the window');
      let held = page.bytes(id);
      for (let settled = false; !settled;) {
        await sleep(500);
        settled = page.bytes(id) === held;
        held = page.bytes(id);
      }
      expect(held - start).toBeLessThanOrEqual(flowWindowFor(rate) + ONE_READ);
      // Acknowledged with a fast page's rate, the window is megabytes again.
      page.ackAll(id, 25_000_000);
      await waitFor(() => page.bytes(id) - held > 2 * flowWindowFor(rate) + ONE_READ, 'a larger window after a faster rate');
      await page.type(id, '\x03');
      page.autoAck = true;
      page.ackAll(id);
      await waitFor(() => page.readable(id).endsWith(PROMPT), 'the prompt after the flood', 15_000);
    },
  );

  it('with two pages on one terminal, the slower page bounds what is in flight; once it leaves, the faster one runs free', { timeout: 60_000 }, async () => {
    const id = await page.create();
    await waitFor(() => page.readable(id).includes(PROMPT), 'the prompt');
    const slow = await openPage();
    try {
      const snapshot = await slow.request('terminal.snapshot', { id });
      expect(snapshot.result.ok).toBe(true);
      // The first page acknowledges everything at once; the second parses 1 MB a second and acknowledges nothing more.
      slow.autoAck = false;
      const rate = 1_000_000;
      slow.ackAll(id, rate);
      await sleep(200);
      const start = slow.bytes(id);
      const marker = uniqueMarker();
      markers.push(marker);
      await page.type(id, `yes flood.${marker}\r`);
      await waitFor(() => slow.bytes(id) - start > flowWindowFor(rate), 'the flood to pass the slow page’s window');
      let held = slow.bytes(id);
      for (let settled = false; !settled;) {
        await sleep(500);
        settled = slow.bytes(id) === held;
        held = slow.bytes(id);
      }
      // Held at the slow page's 150 KB, not the fast page's 3 MB.
      expect(held - start).toBeLessThanOrEqual(flowWindowFor(rate) + ONE_READ + OUTPUT_BATCH_MAX_BYTES);
      expect(processesWith(`flood.${marker}`)).not.toEqual([]);
      const fastHeld = page.bytes(id);

      slow.ws.close();
      // Far more than the slow page's window: only the page that stayed holds the shell now.
      await waitFor(() => page.bytes(id) - fastHeld > FLOW_HIGH_WATERMARK_BYTES / 2, 'the flood to run on for the page that stayed', 30_000);
      await page.type(id, '\x03');
      await waitFor(() => page.readable(id).endsWith(PROMPT), 'the prompt after the flood', 15_000);
    } finally {
      slow.ws.close();
    }
  });

  it('answers a malformed binary message with an error and keeps the connection', { timeout: 20_000 }, async () => {
    const reply = await page.rawBinary(new Uint8Array([7, 7, 7]));
    expect(reply.result).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const listed = await page.request('terminal.list', {});
    expect(listed.result.ok).toBe(true);
  });

  it('a second page attaching gets the screen as a snapshot, with the batch it ends at, and then the same live frames', { timeout: 30_000 }, async () => {
    const id = await page.create();
    await waitFor(() => page.readable(id).includes(PROMPT), 'the prompt');
    await page.type(id, 'seq -f "row-%g" 1 500\r');
    await waitFor(() => page.readable(id).includes('row-500\n') && page.readable(id).endsWith(PROMPT), 'the rows and the prompt after them');
    const second = await openPage();
    try {
      const snapshot = await second.request('terminal.snapshot', { id });
      expect(snapshot.result.ok).toBe(true);
      const { data, seq } = snapshot.result.value as { data: string; seq: number };
      expect(data).toContain('row-1\r\n');
      expect(data).toContain('row-500');
      const lastSent = page.frames.filter((frame) => frame.id === id).at(-1)!.seq;
      expect(seq).toBe(lastSent);
      await page.type(id, 'echo live-$((2+3))\r');
      await waitFor(() => second.readable(id).includes('live-5\n'), 'the live output in the second page');
      expect(second.frames.filter((frame) => frame.id === id).every((frame) => frame.seq > seq)).toBe(true);
    } finally {
      second.ws.close();
    }
  });
});
