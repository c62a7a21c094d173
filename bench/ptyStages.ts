import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import WebSocket from 'ws';
import { KeelCore } from '../main/api/core';
import { decodeTerminalFrame, encodeAckFrame } from '../common/terminalFrames';

/** A file of `lines` lines of `lineChars` `a`s, for `cat` to print. */
export function writeLinesFile(dir: string, lines: number, lineChars: number): string {
  const file = join(dir, 'lines.txt');
  writeFileSync(file, `${'a'.repeat(lineChars)}\n`.repeat(lines));
  return file;
}

/** MB/s (10^6 bytes) of a plain node-pty `cat FILE`, counting onData bytes until exit: the pty's own rate. */
export function rawPtyRate(file: string): Promise<{ mbps: number; bytes: number }> {
  return new Promise((resolve) => {
    const began = performance.now();
    let bytes = 0;
    const child = pty.spawn('bash', ['-c', `cat ${file}`], { cols: 150, rows: 40, encoding: null } as pty.IPtyForkOptions);
    child.onData((data: string | Buffer) => (bytes += data.length));
    child.onExit(() => resolve({ mbps: bytes / 1e6 / ((performance.now() - began) / 1000), bytes }));
  });
}

/**
 * MB/s of the same `cat` through Keel's main side alone: a real core's terminal (batches, the
 * headless screen mirror, flow control), with every batch acknowledged as it arrives, to the
 * marker echoed after it. What main costs, before any transport or window.
 */
export async function mainPipelineRate(file: string, dataDir: string, workspace: string): Promise<{ mbps: number }> {
  const core = new KeelCore({ dataDir, host: 'web', version: 'bench' });
  const opened = core.openWorkspace(workspace);
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    const created = await core.handlers['terminal.create']({ cols: 150, rows: 40 });
    if (!created.ok) throw new Error(created.error.message);
    const { id } = created.value;
    let bytes = 0;
    let tail = '';
    let seen: (() => void) | undefined;
    let prompted: (() => void) | undefined;
    const prompt = new Promise<void>((resolve) => (prompted = resolve));
    core.onTerminalOutput((_id, _seq, data) => {
      bytes += data.length;
      prompted?.();
      void core.handlers['terminal.ack']({ id, bytes: data.length });
      tail = (tail + Buffer.from(data.subarray(-512)).toString('latin1')).slice(-1024);
      if (tail.includes('cat-done-2')) seen?.();
    });
    await shellReady(prompt, "the shell in Keel's main");
    const done = new Promise<void>((resolve) => (seen = resolve));
    const from = bytes;
    const began = performance.now();
    await core.handlers['terminal.input']({ id, data: `cat ${file}; echo cat-done-$((1+1))\r` });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      done,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the cat through main did not finish within 120 s')), 120_000))),
    ]).finally(() => clearTimeout(timer));
    return { mbps: (bytes - from) / 1e6 / ((performance.now() - began) / 1000) };
  } finally {
    await core.dispose();
  }
}

/**
 * MB/s of the same `cat` through a running `keel web` to a plain WebSocket client in this process
 * (binary frames, each acknowledged on arrival): main and the transport, without a browser.
 */
export async function webSocketRate(pageUrl: string, file: string): Promise<{ mbps: number }> {
  const url = new URL(pageUrl);
  const ws = new WebSocket(`ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`);
  ws.binaryType = 'arraybuffer';
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  const answers = new Map<number, (result: { ok: boolean; value?: { id: string } }) => void>();
  let nextId = 1;
  const request = (channel: string, payload: unknown) =>
    new Promise<{ ok: boolean; value?: { id: string } }>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      ws.send(JSON.stringify({ type: 'request', id, channel, payload }));
    });
  let bytes = 0;
  let tail = '';
  let seen: (() => void) | undefined;
  let prompted: (() => void) | undefined;
  const prompt = new Promise<void>((resolve) => (prompted = resolve));
  ws.addEventListener('message', (event) => {
    if (!(event.data instanceof ArrayBuffer)) {
      const message = JSON.parse(String(event.data as string)) as { type: string; id: number; result: { ok: boolean; value?: { id: string } } };
      if (message.type === 'response') answers.get(message.id)?.(message.result);
      return;
    }
    const frame = decodeTerminalFrame(new Uint8Array(event.data));
    if (frame?.kind !== 'output') return;
    bytes += frame.data.length;
    prompted?.();
    ws.send(encodeAckFrame(frame.id, frame.data.length));
    tail = (tail + Buffer.from(frame.data.subarray(-512)).toString('latin1')).slice(-1024);
    if (tail.includes('ws-done-2')) seen?.();
  });
  try {
    const created = await request('terminal.create', { cols: 150, rows: 40 });
    if (!created.ok || !created.value) throw new Error('terminal.create failed');
    const { id } = created.value;
    await shellReady(prompt, 'the shell behind keel web');
    const done = new Promise<void>((resolve) => (seen = resolve));
    const from = bytes;
    const began = performance.now();
    await request('terminal.input', { id, data: `cat ${file}; echo ws-done-$((1+1))\r` });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      done,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the cat over the WebSocket did not finish within 120 s')), 120_000))),
    ]).finally(() => clearTimeout(timer));
    const mbps = (bytes - from) / 1e6 / ((performance.now() - began) / 1000);
    await request('terminal.close', { id });
    return { mbps };
  } finally {
    ws.close();
  }
}

/** How long a shell may take to print its first prompt before the bench gives up on it. */
const PROMPT_TIMEOUT_MS = 30_000;

/**
 * Resolves once the shell printed something (its prompt) and a moment more for the rest of it, so
 * the timed run starts at a shell that reads its input: a slow start is the rc files', not Keel's.
 */
async function shellReady(prompt: Promise<void>, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    prompt,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} printed no prompt within ${PROMPT_TIMEOUT_MS / 1000} s`)), PROMPT_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  await new Promise((resolve) => setTimeout(resolve, 200));
}
