import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import { noopTool, startAgentHarness, TEST_API_KEY } from '../test/support/agentHarness';
import { startScriptedAnthropic, type Step } from '../test/support/scriptedAnthropic';
import { plainLoop, thinkingLoop, type LoopVariant } from './agentLoopScripts';
import { QUICK, sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const ROUNDS = sized(100, 12);
const TRIALS = sized(6, 1);
/** A warm-up task before the captured one; none with --quick (each task waits for its folder's sandbox). */
const WARMUP_ROUNDS = sized(30, 0);
const GOAL_RATIO = 1.2;

/**
 * Agent loop overhead per round, against the project's scripted Anthropic server with no model
 * delay. Keel: one task of ROUNDS rounds through a real KeelCore (headless): round 1 writes a
 * one-item plan, then the model calls the `noop` tool round after round, marks the plan completed,
 * and ends its turn. Baseline, same run and same server code: bare `client.messages.stream(…)
 * .finalMessage()` calls with the real SDK, replaying the very request bodies the agent sent
 * (same system prompt, tools and growing history), so the only difference is Keel's own work
 * between two requests. A round is timed from the server receiving one request to it receiving
 * the next (the last one: to the end of the task), the same instrument for both. Each task starts
 * once the folder's sandbox helper has started, as a person's task does (its wait is printed).
 * Prints figures only.
 */
export async function benchAgentLoop(): Promise<void> {
  // Issue 21: the same loop again with signed thinking blocks in every assistant turn, the
  // history a thinking model leaves; both ratios printed, each against its own same-run baseline.
  const ratios: string[] = [];
  for (const variant of [plainLoop, thinkingLoop]) {
    const { wall, cpu } = await benchVariant(variant);
    ratios.push(`${variant.title} ${wall.toFixed(2)}× (CPU ${cpu.toFixed(2)}×)`);
  }
  console.log(`\nmean per-round ratio Keel/baseline: ${ratios.join('; ')} (goal ≤ ${GOAL_RATIO}× each)`);
}

/** One variant: a warm-up, then TRIALS trials of Keel and the bare SDK; returns the mean per-round ratios. */
async function benchVariant(variant: LoopVariant): Promise<{ wall: number; cpu: number }> {
  heading(`Agent loop, ${variant.title}: overhead per round (${ROUNDS}-round task, scripted server, no model delay)`);
  const baselineServer = await startScriptedAnthropic({ ...variant.server, apiKey: TEST_API_KEY });
  try {
    // Warm up both paths (JIT, sockets), and capture the request bodies the baseline replays.
    if (WARMUP_ROUNDS > 0) {
      const warm = await agentTask(variant, WARMUP_ROUNDS);
      await baselineReplay(variant, baselineServer, warm.bodies);
    }
    const captured = await agentTask(variant, ROUNDS);
    await baselineReplay(variant, baselineServer, captured.bodies);

    const agent: number[] = [];
    const bare: number[] = [];
    // Round-indexed samples, to see whether the cost grows with the history.
    const agentByRound: number[][] = Array.from({ length: ROUNDS }, () => []);
    const bareByRound: number[][] = Array.from({ length: ROUNDS }, () => []);
    const agentTotals: number[] = [];
    const bareTotals: number[] = [];
    // CPU time of this process per round (server, SDK and Keel; not the sandbox helper): less
    // swayed than wall time by the other engineers' load on the same two cores.
    const agentCpu: number[] = [];
    const bareCpu: number[] = [];
    const firstRequest: number[] = [];
    const sandboxWaits: number[] = [];
    const trialRatios: number[] = [];
    // Alternate the order, so neither side always runs on a warmer (or more fragmented) process.
    for (let trial = 0; trial < TRIALS; trial++) {
      const runAgent = async () => {
        // --quick: the captured task is the one trial (each task waits seconds for its sandbox).
        const run = QUICK && trial === 0 ? captured : await agentTask(variant, ROUNDS);
        agent.push(...run.rounds);
        run.rounds.forEach((ms, i) => agentByRound[i]!.push(ms));
        agentTotals.push(run.totalMs);
        agentCpu.push(run.cpuMs / ROUNDS);
        firstRequest.push(run.firstRequestMs);
        sandboxWaits.push(run.sandboxMs);
      };
      const runBare = async () => {
        const run = await baselineReplay(variant, baselineServer, captured.bodies);
        bare.push(...run.rounds);
        run.rounds.forEach((ms, i) => bareByRound[i]!.push(ms));
        bareTotals.push(run.totalMs);
        bareCpu.push(run.cpuMs / ROUNDS);
      };
      if (trial % 2 === 0) {
        await runBare();
        await runAgent();
      } else {
        await runAgent();
        await runBare();
      }
      trialRatios.push(agentTotals.at(-1)! / bareTotals.at(-1)!);
    }

    const firstBytes = JSON.stringify(captured.bodies[0]).length;
    const lastBytes = JSON.stringify(captured.bodies.at(-1)).length;
    console.log(
      `${TRIALS} trials × ${ROUNDS} rounds each; request body grows from ${(firstBytes / 1024).toFixed(1)} KB to ${(lastBytes / 1024).toFixed(1)} KB ` +
        `(system prompt, 2 tool definitions, history)`,
    );
    const row = (label: string, samples: number[]) =>
      console.log(
        `${label.padEnd(34)} mean ${formatMs(mean(samples)).padStart(9)}  p50 ${formatMs(percentile(samples, 50)).padStart(9)}  p95 ${formatMs(percentile(samples, 95)).padStart(9)}  max ${formatMs(Math.max(...samples)).padStart(9)}`,
      );
    row('baseline bare SDK stream, per call', bare);
    row('Keel agent, per round', agent);
    console.log(
      `whole task: Keel ${formatMs(percentile(agentTotals, 50))} (p50 of ${TRIALS}; first request ${formatMs(percentile(firstRequest, 50))} after runTask), ` +
        `baseline ${formatMs(percentile(bareTotals, 50))}`,
    );
    console.log(`  before each task, not counted: the folder's sandbox helper still starting, waited ${formatMs(percentile(sandboxWaits, 50))} (p50)`);
    const ratio = mean(agent) / mean(bare);
    console.log(
      `ratio Keel/baseline: mean ${ratio.toFixed(2)}×, p50 ${(percentile(agent, 50) / percentile(bare, 50)).toFixed(2)}×, ` +
        `p95 ${(percentile(agent, 95) / percentile(bare, 95)).toFixed(2)}× (goal ≤ ${GOAL_RATIO}×); ` +
        `Keel's own work ≈ ${formatMs(mean(agent) - mean(bare))} a round (p50 difference ${formatMs(percentile(agent, 50) - percentile(bare, 50))})`,
    );
    console.log(
      `CPU per round (this process, server included): Keel ${formatMs(mean(agentCpu))}, baseline ${formatMs(mean(bareCpu))}, ` +
        `ratio ${(mean(agentCpu) / mean(bareCpu)).toFixed(2)}×`,
    );
    const quarter = Math.floor(ROUNDS / 4);
    const slice = (byRound: number[][], from: number) => byRound.slice(from, from + quarter).flat();
    console.log(
      `p50 by history length: rounds 1-${quarter} Keel ${formatMs(percentile(slice(agentByRound, 0), 50))} vs baseline ${formatMs(percentile(slice(bareByRound, 0), 50))}; ` +
        `rounds ${ROUNDS - quarter + 1}-${ROUNDS} Keel ${formatMs(percentile(slice(agentByRound, ROUNDS - quarter), 50))} vs baseline ${formatMs(percentile(slice(bareByRound, ROUNDS - quarter), 50))}`,
    );
    console.log(`whole-task ratio per trial: ${trialRatios.map((r) => `${r.toFixed(2)}×`).join(', ')} (spread = noise on this machine)`);
    return { wall: ratio, cpu: mean(agentCpu) / mean(bareCpu) };
  } finally {
    await baselineServer.close();
  }
}

interface Timed {
  /** Per round: from the server receiving its request to receiving the next one (or the end). */
  rounds: number[];
  totalMs: number;
  /** User + system CPU time of this process over the task. */
  cpuMs: number;
}

/** Step functions that note when the server received each request, then answer it. */
function timedScript(variant: LoopVariant, rounds: number, marks: number[]): Step[] {
  return Array.from({ length: rounds }, (_, index) => () => {
    marks.push(performance.now());
    return variant.reply(index, rounds);
  });
}

function intervals(marks: readonly number[], end: number): number[] {
  return marks.map((mark, i) => (marks[i + 1] ?? end) - mark);
}

async function agentTask(variant: LoopVariant, rounds: number): Promise<Timed & { bodies: MessageCreateParams[]; firstRequestMs: number; sandboxMs: number }> {
  const marks: number[] = [];
  const harness = await startAgentHarness(timedScript(variant, rounds, marks), {
    tools: [noopTool],
    server: variant.server,
    ...(variant.settings ? { settings: variant.settings } : {}),
  });
  try {
    const agent = harness.core.currentAgent;
    if (!agent) throw new Error('the harness opened no agent');
    // Opening the folder starts its sandbox helper (a forked Node process, checked at once): a
    // person's task meets it started. Left running, its start shares the 2 cores with the rounds
    // measured here and doubled them; the loop's cost is what this bench is about.
    const opening = performance.now();
    await harness.core.currentSandbox?.start();
    const sandboxMs = performance.now() - opening;
    const start = performance.now();
    const cpu = process.cpuUsage();
    const result = await agent.runTask('Call the noop tool round after round, with a plan.');
    const end = performance.now();
    const cpuMs = cpuMsSince(cpu);
    if (result.outcome !== 'done') throw new Error(`agent task ended ${result.outcome}: ${result.message ?? ''}`);
    if (harness.server.errors.length > 0) throw harness.server.errors[0]!;
    if (marks.length !== rounds || harness.server.remaining !== 0) throw new Error(`agent made ${marks.length} requests, expected ${rounds}`);
    for (const request of harness.server.requests) variant.checkRequest?.(request.body);
    return {
      rounds: intervals(marks, end),
      totalMs: end - start,
      cpuMs,
      firstRequestMs: marks[0]! - start,
      sandboxMs,
      bodies: harness.server.requests.map((r) => r.body),
    };
  } finally {
    await harness.close();
  }
}

async function baselineReplay(
  variant: LoopVariant,
  server: Awaited<ReturnType<typeof startScriptedAnthropic>>,
  bodies: readonly MessageCreateParams[],
): Promise<Timed> {
  const marks: number[] = [];
  server.push(...timedScript(variant, bodies.length, marks));
  const client = new Anthropic({ apiKey: TEST_API_KEY, baseURL: server.baseURL, maxRetries: 4 });
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (const body of bodies) {
    const { stream: _stream, ...params } = body;
    await client.messages.stream(params).finalMessage();
  }
  const end = performance.now();
  const cpuMs = cpuMsSince(cpu);
  if (server.errors.length > 0) throw server.errors[0]!;
  if (marks.length !== bodies.length || server.remaining !== 0) throw new Error(`baseline made ${marks.length} requests, expected ${bodies.length}`);
  return { rounds: intervals(marks, end), totalMs: end - start, cpuMs };
}

function mean(samples: readonly number[]): number {
  return samples.reduce((a, b) => a + b, 0) / samples.length;
}

function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
