import { spawn as spawnChild } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { LiveOutput } from '../main/agent/liveOutput';
import { runInPty } from '../main/tools/bash';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const PAYLOAD_BYTES = sized(50_000_000, 5_000_000);
const LINE_CHARS = 100;
const RUNS = sized(3, 1);
const GOAL_RATIO = 0.8;
/** No further pair of timed runs is started that would likely end past this (one pair is always made). */
const BUDGET_MS = 32_000;
/** No single run may hang the bench: it is killed after this long. */
const RUN_TIMEOUT_MS = 30_000;

const command = (bytes: number) => `head -c ${bytes} /dev/zero | tr '\\0' 'a' | fold -w ${LINE_CHARS}`;

interface Run {
  bytes: number;
  /** From spawn to the exit being reported (runInPty: to its promise resolving). */
  totalMs: number;
  /** From spawn to the last output chunk. */
  lastByteMs: number;
  /** Output callbacks received. */
  chunks: number;
}

/**
 * Output throughput of the bash tool's runner: a command printing ~50 MB (500,000 lines of 100
 * characters) through `runInPty` with an onOutput callback counting what arrives, beside a raw
 * node-pty spawn of the same command counting bytes in onData until exit, alternating, in the same
 * run. A pty turns each \n into \r\n, so ~51 MB reach the reader. MB is 10^6 bytes. runInPty
 * reports an exit about 200 ms late by design (it holds the terminal open so no output is lost);
 * the rate is given both to the exit and to the last byte. Prints figures only.
 */
export async function benchBashThroughput(): Promise<void> {
  heading(`Bash tool output throughput: ~${PAYLOAD_BYTES / 1e6} MB through a pty`);
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-bash-')));
  try {
    // fold ends every full line but the last with \n, which the pty turns into \r\n.
    const expected = PAYLOAD_BYTES + 2 * (Math.ceil(PAYLOAD_BYTES / LINE_CHARS) - 1);
    // Warm-up: JIT, page cache, the pty code paths.
    await viaRunInPty(command(sized(1_000_000, 200_000)), cwd);
    await viaRawPty(command(sized(1_000_000, 200_000)), cwd);

    const producerMs = await producerOnly(command(PAYLOAD_BYTES), cwd);
    const keel: Run[] = [];
    const raw: Run[] = [];
    const began = performance.now();
    for (let i = 0; i < RUNS; i++) {
      // On a loaded machine: fewer runs, so that the bench stays bounded.
      const elapsed = performance.now() - began;
      if (i > 0 && elapsed + elapsed / i > BUDGET_MS) break;
      const runKeel = async () => keel.push(await viaRunInPty(command(PAYLOAD_BYTES), cwd));
      const runRaw = async () => raw.push(await viaRawPty(command(PAYLOAD_BYTES), cwd));
      for (const run of i % 2 === 0 ? [runKeel, runRaw] : [runRaw, runKeel]) await run();
    }

    const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
    const rate = (runs: Run[], key: 'totalMs' | 'lastByteMs') =>
      percentile(
        runs.map((r) => mbps(r.bytes, r[key])),
        50,
      );
    const bytesOf = (runs: Run[]) => {
      const counts = [...new Set(runs.map((r) => r.bytes))];
      const short = counts.filter((b) => b < expected);
      const chunkBytes = percentile(
        runs.map((r) => r.bytes / r.chunks),
        50,
      );
      return (
        `${counts.map((b) => b.toLocaleString('en')).join(' / ')} bytes${short.length ? ` (SHORT of ${expected.toLocaleString('en')} expected)` : ''} ` +
        `in chunks of ${Math.round(chunkBytes).toLocaleString('en')} bytes on average`
      );
    };
    const delay = (runs: Run[]) =>
      formatMs(
        percentile(
          runs.map((r) => r.totalMs - r.lastByteMs),
          50,
        ),
      );
    console.log(`command: ${command(PAYLOAD_BYTES)}; ${keel.length} runs each, alternating; rates are medians`);
    console.log(
      `for scale, the command alone into /dev/null (no pty, no reader): ${mbps(PAYLOAD_BYTES, producerMs).toFixed(1)} MB/s (${formatMs(producerMs)})`,
    );
    console.log(
      `baseline raw node-pty onData: ${rate(raw, 'totalMs').toFixed(1)} MB/s to exit, ${rate(raw, 'lastByteMs').toFixed(1)} MB/s to last byte; ` +
        `exit reported ${delay(raw)} after the last byte; ${bytesOf(raw)}`,
    );
    console.log(
      `runInPty + onOutput:          ${rate(keel, 'totalMs').toFixed(1)} MB/s to exit, ${rate(keel, 'lastByteMs').toFixed(1)} MB/s to last byte; ` +
        `exit reported ${delay(keel)} after the last byte; ${bytesOf(keel)}`,
    );
    console.log(
      `ratio runInPty/raw: ${(rate(keel, 'totalMs') / rate(raw, 'totalMs')).toFixed(2)}× to exit, ` +
        `${(rate(keel, 'lastByteMs') / rate(raw, 'lastByteMs')).toFixed(2)}× to last byte (goal ≥ ${GOAL_RATIO}×)`,
    );

    // What the windows are sent of it when the agent runs it: each read as an event (as before),
    // or batched and bounded by LiveOutput (as now). The JSON is what the WebSocket host sends.
    for (const bounded of [false, true]) {
      const sent = await viaAgentEvents(command(PAYLOAD_BYTES), cwd, bounded);
      console.log(
        `agent events for the windows, ${bounded ? 'LiveOutput (now)       ' : 'one per read (before)'}: ${sent.events.toLocaleString('en')} events, ` +
          `${(sent.jsonBytes / 1e6).toFixed(1)} MB of JSON; run to exit ${formatMs(sent.totalMs)}`,
      );
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function viaAgentEvents(cmd: string, cwd: string, bounded: boolean): Promise<{ events: number; jsonBytes: number; totalMs: number }> {
  let events = 0;
  let jsonBytes = 0;
  const send = (chunk: string, skipped = 0) => {
    events++;
    const event = { type: 'tool_output', id: 'toolu_bench', chunk, ...(skipped > 0 ? { skipped } : {}) };
    jsonBytes += JSON.stringify({ type: 'event', channel: 'agent.event', payload: event }).length;
  };
  const live = new LiveOutput(send);
  const start = performance.now();
  await runInPty(cmd, { cwd, timeoutMs: RUN_TIMEOUT_MS, onOutput: (chunk) => (bounded ? live.push(chunk) : send(chunk)) });
  live.flush();
  return { events, jsonBytes, totalMs: performance.now() - start };
}

async function viaRunInPty(cmd: string, cwd: string): Promise<Run> {
  let bytes = 0;
  let chunks = 0;
  let last = 0;
  const start = performance.now();
  const result = await runInPty(cmd, {
    cwd,
    timeoutMs: RUN_TIMEOUT_MS,
    onOutput: (chunk) => {
      bytes += chunk.length; // the payload is ASCII: one character, one byte
      chunks++;
      last = performance.now();
    },
  });
  const end = performance.now();
  if (result.ending !== 'exited' || result.exitCode !== 0) throw new Error(`runInPty: the command ended ${result.ending}, exit code ${result.exitCode}`);
  return { bytes, chunks, totalMs: end - start, lastByteMs: (last || end) - start };
}

function viaRawPty(cmd: string, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let chunks = 0;
    let last = 0;
    const start = performance.now();
    const term = pty.spawn('bash', ['-c', cmd], {
      name: 'xterm-256color',
      cols: 120,
      rows: 30,
      cwd,
      env: process.env as Record<string, string>,
      encoding: null,
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-term.pid, 'SIGKILL'); // the shell leads its own process group: the pipeline goes too
      } catch {
        term.kill('SIGKILL');
      }
      reject(new Error(`raw node-pty: the command did not exit within ${RUN_TIMEOUT_MS} ms`));
    }, RUN_TIMEOUT_MS);
    const data = term.onData((chunk: string | Uint8Array) => {
      bytes += chunk.length;
      chunks++;
      last = performance.now();
    });
    const exit = term.onExit(({ exitCode }) => {
      const end = performance.now();
      clearTimeout(timer);
      data.dispose();
      exit.dispose();
      if (exitCode !== 0) reject(new Error(`raw node-pty: exit code ${exitCode}`));
      else resolve({ bytes, chunks, totalMs: end - start, lastByteMs: (last || end) - start });
    });
  });
}

/** The producer's own speed: the same pipeline writing into /dev/null. */
function producerOnly(cmd: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawnChild('bash', ['-c', `${cmd} > /dev/null`], { cwd, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', (error) => (clearTimeout(timer), reject(error)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(performance.now() - start);
      else reject(new Error(`producer: exit code ${code}`));
    });
  });
}
