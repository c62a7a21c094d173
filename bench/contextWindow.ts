import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens } from '../common/contextWindow';
import { chooseResultsToClear, KEEP_RECENT_ROUNDS } from '../main/agent/compaction/clearResults';
import { applyCompactionRecord } from '../main/agent/compaction/compactionRecord';
import { makeRoom } from '../main/agent/compaction/compactor';
import { requestHistory } from '../main/agent/history';
import type { ChatMessage } from '../main/agent/messageTypes';
import { WorkspaceSession } from '../main/session/workspaceSession';
import { noopTool, startAgentHarness, TEST_API_KEY } from '../test/support/agentHarness';
import { reply, startScriptedAnthropic, text, toolUse, type Step } from '../test/support/scriptedAnthropic';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const ROUNDS_MEASURED = sized(8, 4);
const TRIALS = sized(5, 1);

/**
 * The context window's costs. (1) A round at 1,000 messages of history vs at 10: Keel's own
 * preparation of the request (normalise + cache breakpoint + size estimate) in process, and a
 * whole round through a real KeelCore against the scripted server beside a bare SDK replay of the
 * same request bodies. (2) How long a stage-1 compaction (choose, apply, record) takes on a
 * 150k-token history. Prints figures only.
 */
export async function benchContextWindow(): Promise<void> {
  heading('Context window: a round at 1,000 messages of history vs at 10; stage-1 compaction on 150k tokens');

  for (const count of [10, 1_000]) {
    const history = syntheticHistory(count / 2, 400);
    const samples = timeRepeated(
      () => {
        const messages = requestHistory(history);
        return messages.length;
      },
      sized(count >= 1_000 ? 200 : 5_000, count >= 1_000 ? 20 : 500),
    );
    const bytes = JSON.stringify(history).length;
    console.log(
      `history prep (normalise + cache breakpoint), ${String(count).padStart(5)} messages (${(bytes / 1024).toFixed(0)} KB): p50 ${formatMs(percentile(samples, 50))}  p95 ${formatMs(percentile(samples, 95))}`,
    );
  }

  const byHistory: Record<number, { keel: number[]; bare: number[] }> = {};
  const baselineServer = await startScriptedAnthropic({ apiKey: TEST_API_KEY });
  try {
    for (const count of [10, 1_000]) {
      byHistory[count] = { keel: [], bare: [] };
      for (let trial = 0; trial < TRIALS + 1; trial++) {
        const run = await roundsAfter(count);
        const bare = await replay(baselineServer, run.bodies);
        if (trial === 0) continue; // warm-up
        byHistory[count]!.keel.push(...run.rounds);
        byHistory[count]!.bare.push(...bare);
      }
      const { keel, bare } = byHistory[count]!;
      console.log(
        `whole round, ${String(count).padStart(5)} messages of history: Keel p50 ${formatMs(percentile(keel, 50))} (p95 ${formatMs(percentile(keel, 95))}), ` +
          `bare SDK replay p50 ${formatMs(percentile(bare, 50))}; Keel's own work ≈ ${formatMs(percentile(keel, 50) - percentile(bare, 50))}`,
      );
    }
  } finally {
    await baselineServer.close();
  }

  // Stage 1 on about 150k tokens: 300 rounds of ~2 KB tool results.
  const big = syntheticHistory(300, 1_740);
  const tokens = big.reduce((n, m) => n + estimateTokens(m), 0);
  const choose = timeRepeated(() => chooseResultsToClear(big, { keepRounds: KEEP_RECENT_ROUNDS, tokensToFree: tokens / 2 }).length, sized(20, 5));
  const cleared = chooseResultsToClear(big, { keepRounds: KEEP_RECENT_ROUNDS, tokensToFree: tokens / 2 });
  const apply = timeRepeated(() => applyCompactionRecord(big, { cleared }).length, sized(20, 5));
  const whole: number[] = [];
  for (let i = 0; i < sized(10, 3); i++) whole.push(await stageOneThroughSession(big));
  console.log(
    `stage-1 compaction on ${big.length} messages ≈ ${Math.round(tokens / 1000)}k tokens, clearing ${cleared.length} results to free half: ` +
      `choose p50 ${formatMs(percentile(choose, 50))}, apply p50 ${formatMs(percentile(apply, 50))}, ` +
      `whole (estimate, choose, apply, transcript record) p50 ${formatMs(percentile(whole, 50))} (max ${formatMs(Math.max(...whole))})`,
  );
}

/** `rounds` rounds of a tool call and its result of `resultChars` characters, after a first message. */
function syntheticHistory(rounds: number, resultChars: number): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'Read the project and fix the bug.' }] }];
  const body = 'x'.repeat(resultChars);
  for (let i = 0; i < rounds; i++) {
    const id = `toolu_${String(i).padStart(6, '0')}`;
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Round ${i}: reading.` },
        { type: 'tool_use', id, name: 'read_file', input: { path: `src/file${i}.ts` } },
      ],
    });
    const result: ContentBlockParam = { type: 'tool_result', tool_use_id: id, content: `     1\t${body}` };
    messages.push({ role: 'user', content: [result] });
  }
  return messages.slice(0, rounds * 2 + 1);
}

function timeRepeated(work: () => unknown, times: number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < Math.min(10, times); i++) work();
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** A short task in a session that already holds `count` messages; each round timed at the server. */
async function roundsAfter(count: number): Promise<{ rounds: number[]; bodies: MessageCreateParams[] }> {
  const marks: number[] = [];
  const script: Step[] = Array.from({ length: ROUNDS_MEASURED }, (_, i) => () => {
    marks.push(performance.now());
    return i === ROUNDS_MEASURED - 1 ? reply(text('done')) : reply(toolUse('noop', {}));
  });
  const harness = await startAgentHarness(script, { tools: [noopTool] });
  try {
    const session = harness.core.currentSession!;
    for (const message of syntheticHistory(Math.floor(count / 2), 400).slice(0, count)) session.appendMessage(message);
    session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'Ready.' }] });
    const result = await harness.core.currentAgent!.runTask('go on');
    const end = performance.now();
    if (result.outcome !== 'done') throw new Error(`task ended ${result.outcome}: ${result.message ?? ''}`);
    return { rounds: marks.map((mark, i) => (marks[i + 1] ?? end) - mark).slice(1), bodies: harness.server.requests.map((r) => r.body) };
  } finally {
    await harness.close();
  }
}

async function replay(server: Awaited<ReturnType<typeof startScriptedAnthropic>>, bodies: readonly MessageCreateParams[]): Promise<number[]> {
  const marks: number[] = [];
  server.push(...bodies.map((_, i) => () => (marks.push(performance.now()), i === bodies.length - 1 ? reply(text('done')) : reply(toolUse('noop', {})))));
  const client = new Anthropic({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  for (const body of bodies) {
    const { stream: _stream, ...params } = body;
    await client.messages.stream(params).finalMessage();
  }
  const end = performance.now();
  return marks.map((mark, i) => (marks[i + 1] ?? end) - mark).slice(1);
}

/** Stage 1 as the agent runs it: through makeRoom on a real session, transcript record included. */
async function stageOneThroughSession(history: readonly ChatMessage[]): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-data-'));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-ws-')));
  try {
    const session = WorkspaceSession.open(dataDir, workspace);
    session.messages.push(...history);
    const estimate = (messages: readonly ChatMessage[]) => messages.reduce((n, m) => n + estimateTokens(m), 0);
    const size = estimate(history);
    const client = new Anthropic({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' });
    const start = performance.now();
    const infos = await makeRoom(
      {
        session,
        client,
        settings: {
          apiKey: 'unused',
          baseURL: undefined,
          model: 'm',
          maxTokens: 1024,
          reminderRounds: 3,
          gateBound: 2,
          contextWindow: 200_000,
          compactAt: 0.8,
        },
        task: null,
        signal: new AbortController().signal,
        estimate,
      },
      { reason: 'threshold', summarize: false, targetTokens: Math.floor(size / 2), enoughTokens: size, window: 200_000 },
    );
    const ms = performance.now() - start;
    if (infos.length !== 1 || infos[0]!.stage !== 'cleared') throw new Error('stage 1 did not run alone');
    return ms;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}
