import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgentHarness } from '../test/support/agentHarness';
import { reply, type ScriptedAnthropicOptions } from '../test/support/scriptedAnthropic';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const RUNS = sized(8, 3);
const GOAL_MS = 50;
const SONNET = { id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 128_000, thinking: ['adaptive' as const], effort: ['medium' as const] };
const settings = { model: SONNET.id, maxTokensSet: false, contextWindowSet: false, thinking: 'auto' as const };

/**
 * Issue 21: the model catalogue never delays a task's first request by more than 50 ms once it is
 * cached. A fresh Keel (a new core, as every `keel run` is) on a data folder that already holds the
 * endpoint's catalogue, against the same Keel on an endpoint without a catalogue (404, nothing to
 * wait for), same run: the time from sending the task to the server receiving its first request.
 * One start of each kind first is not counted: the first cached start reuses the port of the start
 * that kept the catalogue, and this process's fetch still held a connection to that closed server,
 * so its first request failed ("other side closed") and the SDK asked again after its back-off. A
 * `keel run` is a new process with no such connection, and the starts after that one met none.
 */
export async function benchCatalogueLookup(): Promise<void> {
  heading(`Model catalogue: a task's first request, cached catalogue against none (${RUNS} fresh starts each)`);
  const cached: number[] = [];
  const none: number[] = [];
  const warmUp: number[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-catalogue-'));
  try {
    // One start to read and keep the catalogue; its server's port is reused, so the endpoint is the same.
    const first = await firstRequestMs({ catalogue: [SONNET] }, dataDir);
    warmUp.push((await firstRequestMs({ catalogue: [SONNET], port: first.port }, dataDir, true)).ms);
    warmUp.push((await firstRequestMs({ catalogue: 'missing' })).ms);
    for (let i = 0; i < RUNS; i++) {
      cached.push((await firstRequestMs({ catalogue: [SONNET], port: first.port }, dataDir, true)).ms);
      none.push((await firstRequestMs({ catalogue: 'missing' })).ms);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const p50 = (values: number[]) => percentile(values, 50);
  console.log(`task sent -> first request, cached catalogue: p50 ${formatMs(p50(cached))}, max ${formatMs(Math.max(...cached))}`);
  console.log(`task sent -> first request, no catalogue (404): p50 ${formatMs(p50(none))}, max ${formatMs(Math.max(...none))}`);
  console.log(`  before them, not counted: one start of each, cached ${formatMs(warmUp[0]!)}, no catalogue ${formatMs(warmUp[1]!)}`);
  console.log(`the catalogue's cost, p50 difference: ${(p50(cached) - p50(none)).toFixed(0)} ms (goal: the cached lookup <= ${GOAL_MS} ms)`);
}

async function firstRequestMs(
  server: Omit<ScriptedAnthropicOptions, 'script' | 'apiKey'>,
  dataDir?: string,
  mustBeCached = false,
): Promise<{ ms: number; port: number }> {
  const harness = await startAgentHarness([reply('Hi.')], { settings, server, ...(dataDir ? { dataDir } : {}) });
  try {
    const startedAt = Date.now();
    const sent = await harness.core.handlers['task.send']({ text: 'hi' });
    if (!sent.ok) throw new Error(sent.error.message);
    while (harness.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const request = harness.server.requests[0]!;
    const ms = request.receivedAt - startedAt;
    if (mustBeCached && request.body.max_tokens !== SONNET.max_tokens)
      throw new Error(`the first request asked for max_tokens ${request.body.max_tokens}: the kept catalogue was not used`);
    return { ms, port: harness.server.port };
  } finally {
    await harness.close();
  }
}
