import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../../common/agentEvents';
import { KeelCore } from '../../../main/api/core';
import { dispatchRequest } from '../../../main/api/dispatch';
import { SUMMARY_SYSTEM_MARK } from '../../../main/agent/compaction/summaryRequest';
import { fileTools } from '../../../main/tools/files';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, systemText, text, toolUse, type ScriptedRequest, type Step } from '../../support/scriptedAnthropic';
import { allBlocks, items, sendTask, toolResultsLead } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Compaction = Extract<AgentEvent, { type: 'compaction' }>;

const SUMMARY = 'Goal: read big.txt in parts. Files: big.txt (700 lines). State: reading. Next: keep reading.';
const isSummaryRequest = (request: ScriptedRequest) => systemText(request).startsWith(SUMMARY_SYSTEM_MARK);
const answerSummaries = (request: ScriptedRequest) => (isSummaryRequest(request) ? reply(SUMMARY) : undefined);

/** A 700-line file: each read of 100 lines is about 1,000 tokens of tool result. */
function writeBigFile(workspace: string): void {
  const lines = Array.from({ length: 700 }, (_, i) => `line ${i + 1}: ${'the quick brown fox jumps '.repeat(1)}${i}`);
  writeFileSync(join(workspace, 'big.txt'), `${lines.join('\n')}\n`);
}

const PLAN = ['Read big.txt in parts', 'Count what it says', 'Report'];
const planItems = (done: number) =>
  items(...PLAN.map((content, i): [string, string] => [content, i < done ? 'completed' : i === done ? 'in_progress' : 'pending']));

/** A long task: a plan, `reads` rounds of read_file, the plan updated along the way, then done. */
function longTask(reads: number): Step[] {
  const steps: Step[] = [reply(text('Planning.'), toolUse('todo', { items: planItems(0) }))];
  for (let i = 0; i < reads; i++) {
    const offset = (i % 7) * 100 + 1;
    const read = toolUse('read_file', { path: 'big.txt', offset, limit: 100 });
    steps.push(i === Math.floor(reads / 2) ? reply(toolUse('todo', { items: planItems(1) }), read) : reply(read));
  }
  steps.push(reply(toolUse('todo', { items: planItems(3) })), reply(text('All read and counted.')));
  return steps;
}

function checkEveryRequest(requests: readonly ScriptedRequest[], limit: number): void {
  for (const request of requests) {
    expect(request.rejected, `request ${request.index}`).toBeUndefined();
    expect(request.tokens).toBeLessThanOrEqual(limit);
    if (!request.side) expect(toolResultsLead(request)).toBe(true);
  }
}

describe('a long task against a small context window', () => {
  it('runs 200 rounds, makes room (clearing, then summaries), never sends a request over the limit, and keeps its plan', async () => {
    const limit = 20_000;
    harness = await startAgentHarness(longTask(200), {
      tools: fileTools,
      settings: { contextWindow: limit, compactAt: 0.8 },
      server: { contextLimit: limit, sideAnswer: answerSummaries },
    });
    writeBigFile(harness.workspace);
    const finished = await sendTask(harness, 'read big.txt again and again', 120_000);

    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(harness.server.remaining).toBe(0);
    checkEveryRequest(harness.server.requests, limit);

    const compactions = harness.events.filter((e): e is Compaction => e.type === 'compaction');
    expect(compactions.some((c) => c.stage === 'cleared')).toBe(true);
    expect(compactions.some((c) => c.stage === 'summarized')).toBe(true);
    for (const c of compactions) expect(c.afterTokens).toBeLessThan(c.beforeTokens);

    // Cleared results say what was there and how to get it back.
    const later = harness.server.requests.filter((r) => !r.side).at(-1)!;
    const placeholders = allBlocks(later).flatMap(({ block }) =>
      block.type === 'tool_result' && typeof block.content === 'string' && block.content.includes('cleared to make room') ? [block.content] : [],
    );
    expect(placeholders.length).toBeGreaterThan(0);
    expect(placeholders[0]).toMatch(/^\[read_file big\.txt, lines \d+–\d+: cleared to make room; read it again if you need it\]$/);

    // After a summary, the first message carries the summary, the task and the plan from the store.
    const summarized = compactions.find((c) => c.stage === 'summarized')!;
    expect(summarized.summary).toBe(SUMMARY);
    const afterSummary = harness.server.requests.find((r) => !r.side && JSON.stringify(r.body.messages[0]).includes('<conversation-summary>'))!;
    const head = JSON.stringify(afterSummary.body.messages[0]);
    expect(head).toContain(SUMMARY.slice(0, 30));
    expect(head).toContain('read big.txt again and again');
    expect(head).toMatch(/\[(>|x)\] #\d+ Read big\.txt in parts/);

    const plan = harness.core.currentSession!.plan;
    expect(plan.items.map((i) => [i.content, i.status])).toEqual(PLAN.map((c) => [c, 'completed']));
  }, 180_000);

  it('goes by the tokens the API reports, not only by its own estimate', async () => {
    // The requests are small, but the service says the first one took 17,000 of a 20,000 window.
    harness = await startAgentHarness(
      [
        { ...reply(toolUse('read_file', { path: 'big.txt', limit: 50 })), usage: { input_tokens: 1_000, cache_read_input_tokens: 16_000 } },
        reply(text('done')),
      ],
      { tools: fileTools, settings: { contextWindow: 20_000 }, server: { sideAnswer: answerSummaries } },
    );
    writeBigFile(harness.workspace);
    expect((await sendTask(harness, 'read a little')).outcome).toBe('done');
    const compactions = harness.events.filter((e): e is Compaction => e.type === 'compaction');
    expect(compactions.map((c) => [c.stage, c.reason])).toEqual([['summarized', 'threshold']]);
    expect(compactions[0]!.beforeTokens).toBeGreaterThan(17_000);
    const context = harness.events.filter((e) => e.type === 'context');
    expect(context[0]).toMatchObject({ type: 'context', windowTokens: 20_000, compactAtTokens: 16_000 });
    expect((context[0] as { usedTokens: number }).usedTokens).toBeGreaterThanOrEqual(17_000);
  }, 60_000);

  it('makes room and retries once when the service refuses a request as too long', async () => {
    // Keel believes the window is 200k; the service takes 9,000 tokens.
    harness = await startAgentHarness(longTask(12), {
      tools: fileTools,
      server: { contextLimit: 9_000, sideAnswer: answerSummaries },
    });
    writeBigFile(harness.workspace);
    const finished = await sendTask(harness, 'read big.txt', 60_000);

    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const refused = harness.server.requests.filter((r) => r.rejected);
    expect(refused.length).toBe(1);
    expect(refused[0]!.rejected).toMatch(/^prompt is too long: \d+ tokens > 9000 maximum$/);
    const compactions = harness.events.filter((e): e is Compaction => e.type === 'compaction');
    expect(compactions[0]?.reason).toBe('refused');
    // Having learned the limit, Keel keeps under it without being refused again.
    const after = harness.server.requests.slice(harness.server.requests.indexOf(refused[0]!) + 1);
    checkEveryRequest(after, 9_000);

    // The session is not stuck: the next message is answered.
    harness.server.push(reply(text('Still here.')));
    expect((await sendTask(harness, 'are you there?')).outcome).toBe('done');
  }, 120_000);

  it('ends the task with an error that says what to do when the service refuses again, and the next message still works', async () => {
    // One round's result alone is bigger than the service takes.
    harness = await startAgentHarness([reply(toolUse('read_file', { path: 'big.txt', limit: 700 })), reply(text('never'))], {
      tools: fileTools,
      server: { contextLimit: 6_000, sideAnswer: answerSummaries },
    });
    writeBigFile(harness.workspace);
    const finished = await sendTask(harness, 'read all of big.txt', 60_000);
    expect(finished.outcome).toBe('error');
    expect(finished.message).toMatch(/too long for the model even after making room/);
    expect(finished.errorCode).toBe('too_long');
    expect(finished.message).toMatch(/contextWindow/);
    expect(harness.server.requests.filter((r) => r.rejected).length).toBe(2);

    harness.server.push(reply(text('Fine now.')));
    expect((await sendTask(harness, 'say hi')).outcome).toBe('done');
    expect(harness.server.requests.at(-1)!.rejected).toBeUndefined();
  }, 60_000);

  it('sets aside a message bigger than the window after the second refusal, so the session is not stuck', async () => {
    harness = await startAgentHarness([reply(text('Fine now.'))], { server: { contextLimit: 6_000, sideAnswer: answerSummaries } });
    const finished = await sendTask(harness, `please look at this log:\n${'a log line that goes on and on\n'.repeat(1_500)}`, 60_000);
    expect(finished.outcome).toBe('error');
    expect(finished.message).toMatch(/set the conversation aside/);
    expect(finished.errorCode).toBe('too_long');
    expect(harness.server.requests.filter((r) => r.rejected).length).toBe(2);

    expect((await sendTask(harness, 'say hi')).outcome).toBe('done');
    const last = harness.server.requests.at(-1)!;
    expect(last.rejected).toBeUndefined();
    expect(JSON.stringify(last.body.messages)).toContain('the message goes on for');
    expect(JSON.stringify(last.body.messages)).toContain('say hi');
  }, 60_000);

  it('resumes a compacted session with the compacted view and the plan', async () => {
    const limit = 12_000;
    harness = await startAgentHarness(longTask(40), {
      tools: fileTools,
      settings: { contextWindow: limit },
      server: { contextLimit: limit, sideAnswer: answerSummaries },
    });
    writeBigFile(harness.workspace);
    expect((await sendTask(harness, 'read big.txt', 60_000)).outcome).toBe('done');
    const session = harness.core.currentSession!;
    expect(harness.events.some((e) => e.type === 'compaction' && e.stage === 'summarized')).toBe(true);
    const compactedView = JSON.parse(JSON.stringify(session.messages));

    const reopened = new KeelCore({
      dataDir: harness.dataDir,
      host: 'web',
      version: 'test',
      tools: () => fileTools,
      settings: () => harness!.settings,
      headless: true,
    });
    const opened = reopened.openWorkspace(harness.workspace, { sessionId: session.id });
    expect(opened.ok).toBe(true);
    const resumed = reopened.currentSession!;
    expect(resumed.messages).toEqual(compactedView);
    expect(resumed.plan.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);

    // The next request carries the compacted history, not the whole transcript.
    harness.server.push(reply(text('Resumed.')));
    const result = await reopened.currentAgent!.runTask('one more thing');
    expect(result.outcome).toBe('done');
    const request = harness.server.requests.at(-1)!;
    expect(request.rejected).toBeUndefined();
    expect(JSON.stringify(request.body.messages[0])).toContain('<conversation-summary>');
    const chat = await reopened.handlers['chat.history']({});
    expect(chat.ok && chat.value.some((item) => item.kind === 'compaction')).toBe(true);
  }, 120_000);
});

describe('the context window saved in the settings', () => {
  it('a window and threshold saved as the Settings dialog saves them set where the agent makes room, and what the meter shows', async () => {
    // The service says the first request took 13,000 tokens: far below the default 80% of 200k,
    // past half of a 20k window.
    harness = await startAgentHarness(
      [
        { ...reply(toolUse('read_file', { path: 'big.txt', limit: 50 })), usage: { input_tokens: 1_000, cache_read_input_tokens: 12_000 } },
        reply(text('done')),
      ],
      { tools: fileTools, settingsFromFile: true, server: { sideAnswer: answerSummaries } },
    );
    writeBigFile(harness.workspace);
    const status = async () => {
      const result = await harness!.core.handlers['agent.status']({});
      return result.ok ? result.value.context : undefined;
    };
    expect(await status()).toMatchObject({ windowTokens: 200_000, compactAtTokens: 160_000 });

    const saved = await dispatchRequest(harness.core.handlers, 'settings.update', { contextWindow: 20_000, compactAt: 0.5 });
    expect(saved.ok).toBe(true);
    // What the status bar's meter asks, before any request.
    expect(await status()).toMatchObject({ windowTokens: 20_000, compactAtTokens: 10_000 });

    expect((await sendTask(harness, 'read a little')).outcome).toBe('done');
    const compactions = harness.events.filter((e): e is Compaction => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ reason: 'threshold' });
    expect(compactions[0]!.beforeTokens).toBeGreaterThan(10_000);
    expect(harness.events.filter((e) => e.type === 'context')[0]).toMatchObject({ windowTokens: 20_000, compactAtTokens: 10_000 });
  }, 60_000);
});
