import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_MARK } from '../../../main/agent/compaction/summaryRequest';
import { fileTools } from '../../../main/tools/files';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import {
  redactedThinking,
  reply,
  systemText,
  text,
  thinking,
  toolUse,
  type ScriptedModel,
  type ScriptedRequest,
  type Step,
} from '../../support/scriptedAnthropic';
import { recordingTool, sendTask } from './scenario';
import { z } from 'zod';
import type { AgentTool } from '../../../main/agent/toolRunner';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const SONNET_5: ScriptedModel = {
  id: 'claude-sonnet-5-5',
  max_input_tokens: 200_000,
  max_tokens: 128_000,
  thinking: ['adaptive'],
  effort: ['low', 'medium', 'high', 'xhigh', 'max'],
};
const SONNET_4: ScriptedModel = { id: 'claude-sonnet-4-5', max_input_tokens: 200_000, max_tokens: 32_000, thinking: ['enabled'] };
/** As `resolveModelSettings` reads a settings file that sets neither max tokens nor the window. */
const unset = (model: string) => ({ model, maxTokensSet: false, contextWindowSet: false, thinking: 'auto' as const });

const thinkingLoop = (): Step[] => [
  reply(thinking('The person wants the files listed; list first.'), text('Listing.'), toolUse('look', {})),
  reply(redactedThinking('EncryptedReasoning0001'), toolUse('look', { again: true })),
  reply(thinking('Both looks agree.'), text('Two looks, same answer.')),
];

describe('the model catalogue, thinking and effort against the endpoint', () => {
  it('asks a model with adaptive thinking to think, at medium effort and its largest max_tokens, and sends every thinking block back unchanged', async () => {
    const look = recordingTool('look');
    harness = await startAgentHarness(thinkingLoop(), { tools: [look], settings: unset('claude-sonnet-5-5'), server: { catalogue: [SONNET_5] } });
    const finished = await sendTask(harness, 'look twice');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    const requests = harness.server.requests;
    expect(requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
    for (const r of requests) {
      expect(r.body.thinking).toEqual({ type: 'adaptive' });
      expect(r.body.output_config).toEqual({ effort: 'medium' });
      expect(r.body.max_tokens).toBe(128_000);
      // Adaptive thinking interleaves with tool calls by itself: no beta asked for.
      expect(r.headers['anthropic-beta']).toBeUndefined();
    }
    // The last request carries both earlier turns exactly as they came, signatures and data included.
    const assistantTurns = requests[2]!.body.messages.filter((m) => m.role === 'assistant');
    expect(assistantTurns[0]!.content).toContainEqual({
      type: 'thinking',
      thinking: 'The person wants the files listed; list first.',
      signature: harness.server.sign('The person wants the files listed; list first.'),
    });
    expect((assistantTurns[1]!.content as { type: string }[])[0]).toEqual({ type: 'redacted_thinking', data: 'EncryptedReasoning0001' });
    expect(look.calls).toHaveLength(2);
    // Thinking streams as its own events, never as the answer's text.
    const answer = harness.events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
    expect(answer).not.toContain('list first');
    expect(harness.events.flatMap((e) => (e.type === 'thinking' ? [e.delta] : [])).join('')).toContain('list first');
    expect(harness.events.some((e) => e.type === 'thinking' && e.redacted)).toBe(true);
  });

  it('an effort picked while a task runs is carried by its next request, kept with the session; a level the model lacks is refused', async () => {
    const LISTED: ScriptedModel = { ...SONNET_5, effort: ['low', 'medium', 'high'] };
    let picked: unknown;
    const pick: AgentTool = {
      name: 'look',
      description: 'Test tool look.',
      inputSchema: z.object({}).passthrough(),
      async run() {
        // The person picks a level in the status bar while the tool runs.
        picked = await harness!.core.handlers['model.setEffort']({ effort: 'high' });
        return { content: 'look ran', isError: false };
      },
    };
    harness = await startAgentHarness([reply(toolUse('look', {})), reply(text('Done.'))], {
      tools: [pick],
      settings: unset('claude-sonnet-5-5'),
      server: { catalogue: [LISTED] },
    });
    expect((await sendTask(harness, 'look')).outcome).toBe('done');
    expect(picked).toMatchObject({ ok: true, value: { effort: { value: 'high', levels: ['low', 'medium', 'high'], source: 'session' } } });
    expect(harness.server.requests.map((r) => r.body.output_config)).toEqual([{ effort: 'medium' }, { effort: 'high' }]);
    const refused = await harness.core.handlers['model.setEffort']({ effort: 'max' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('It offers: low, medium, high.') } });
    expect((await harness.core.handlers['model.profile']({})) as unknown).toMatchObject({ ok: true, value: { effort: { value: 'high' } } });

    // The pick belongs to the session: a new one starts at the settings' effort, and the first has it back when reopened.
    const first = harness.core.currentSession!.id;
    expect(harness.core.openWorkspace(harness.workspace, { fresh: true }).ok).toBe(true);
    expect(await harness.core.handlers['model.profile']({})).toMatchObject({ ok: true, value: { effort: { value: 'medium', source: 'endpoint' } } });
    expect(harness.core.openWorkspace(harness.workspace, { sessionId: first }).ok).toBe(true);
    expect(await harness.core.handlers['model.profile']({})).toMatchObject({ ok: true, value: { effort: { value: 'high', source: 'session' } } });
  });

  it('asks a model that takes only a budget for enabled thinking under its max_tokens, thinking between tool calls, and sends no effort', async () => {
    const look = recordingTool('look');
    harness = await startAgentHarness(thinkingLoop(), { tools: [look], settings: unset('claude-sonnet-4-5'), server: { catalogue: [SONNET_4] } });
    expect((await sendTask(harness, 'look twice')).outcome).toBe('done');
    expect(harness.server.requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
    for (const r of harness.server.requests) {
      expect(r.body.max_tokens).toBe(32_000);
      expect(r.body.thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
      expect(r.body.output_config).toBeUndefined();
      expect(r.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    }
  });

  it('asks once more without the beta header when the endpoint takes none, says so, and keeps thinking', async () => {
    harness = await startAgentHarness([reply(thinking('Short.'), text('Hi.'))], {
      settings: unset('claude-sonnet-4-5'),
      server: { catalogue: [SONNET_4], refuseBetas: true },
    });
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    const requests = harness.server.requests;
    expect(requests.map((r) => [r.rejected?.split(' for ')[0], r.headers['anthropic-beta'], r.body.thinking?.type])).toEqual([
      ['Unexpected value(s) `interleaved-thinking-2025-05-14`', 'interleaved-thinking-2025-05-14', 'enabled'],
      [undefined, undefined, 'enabled'],
    ]);
    const notices = harness.events.filter((e) => e.type === 'notice' && e.kind === 'model');
    expect(notices).toHaveLength(1);
    expect(JSON.stringify(notices[0])).toContain("refused Keel's beta features");
  });

  it('without a catalogue (404) sends neither thinking nor effort, and takes max_tokens from the built-in table', async () => {
    harness = await startAgentHarness([reply('Hi.'), reply('Hi again.')], { settings: unset('claude-sonnet-5-5'), server: { catalogue: 'missing' } });
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    const body = harness.server.requests[0]!.body;
    expect(body.thinking).toBeUndefined();
    expect(body.output_config).toBeUndefined();
    expect(body.max_tokens).toBe(128_000);
  });

  it('keeps the person’s max tokens, but never above what the model allows', async () => {
    harness = await startAgentHarness([reply('Hi.')], {
      settings: { ...unset('claude-sonnet-4-5'), maxTokensSet: true, maxTokens: 100_000 },
      server: { catalogue: [SONNET_4] },
    });
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    expect(harness.server.requests[0]!.body.max_tokens).toBe(32_000);
  });

  it('asks once more without thinking when the endpoint refuses it, says so, and does not ask it to think again', async () => {
    harness = await startAgentHarness([reply('Hi.'), reply('Hi again.')], {
      settings: { ...unset('claude-sonnet-5-5'), thinking: 'on' },
      server: { refuseThinking: true, catalogue: 'missing' },
    });
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    expect((await sendTask(harness, 'hi again')).outcome).toBe('done');
    const requests = harness.server.requests;
    expect(requests.map((r) => [Boolean(r.rejected), r.body.thinking?.type])).toEqual([
      [true, 'adaptive'],
      [false, undefined],
      [false, undefined],
    ]);
    expect(harness.events.filter((e) => e.type === 'notice' && e.kind === 'model')).toHaveLength(1);
  });

  it('continues a pause_turn without a message from the person', async () => {
    harness = await startAgentHarness([{ ...reply(thinking('Looking.'), text('Searching')), stop_reason: 'pause_turn' }, reply('Found it.')], {
      settings: unset('claude-sonnet-5-5'),
      server: { catalogue: [SONNET_5] },
    });
    const finished = await sendTask(harness, 'find it');
    expect(finished.outcome).toBe('done');
    const second = harness.server.requests[1]!;
    expect(second.rejected).toBeUndefined();
    expect(second.body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

const SUMMARY = 'Goal: read big.txt in parts. State: reading.';
const isSummary = (request: ScriptedRequest) => systemText(request).startsWith(SUMMARY_SYSTEM_MARK);

describe('the window the catalogue gives', () => {
  it('compacts before a 30,000-token window is passed: no "prompt is too long" at all, thinking intact', async () => {
    const small: ScriptedModel = { ...SONNET_5, max_input_tokens: 30_000 };
    const steps: Step[] = [];
    for (let i = 0; i < 40; i++)
      steps.push(reply(thinking(`Read part ${i}.`), toolUse('read_file', { path: 'big.txt', offset: (i % 7) * 100 + 1, limit: 100 })));
    steps.push(reply(thinking('All read.'), text('Read it all.')));
    harness = await startAgentHarness(steps, {
      tools: fileTools,
      settings: unset('claude-sonnet-5-5'),
      server: { catalogue: [small], sideAnswer: (r) => (isSummary(r) ? reply(SUMMARY) : undefined) },
    });
    const lines = Array.from({ length: 700 }, (_, i) => `line ${i + 1}: the quick brown fox jumps ${i}`);
    writeFileSync(join(harness.workspace, 'big.txt'), `${lines.join('\n')}\n`);
    const finished = await sendTask(harness, 'read big.txt in parts', 120_000);
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);
    expect(harness.server.requests.filter((r) => r.rejected)).toEqual([]);
    expect(harness.events.some((e) => e.type === 'compaction')).toBe(true);
    expect(harness.events.find((e) => e.type === 'context')).toMatchObject({ windowTokens: 30_000 });
  });

  it('learns the window from a "N tokens > M maximum" refusal, so the next task fits', async () => {
    harness = await startAgentHarness([reply('Fine.'), reply('Fine again.')], {
      settings: unset('claude-test'),
      server: { catalogue: 'missing', contextLimit: 9_000, sideAnswer: (r) => (isSummary(r) ? reply(SUMMARY) : undefined) },
    });
    await sendTask(harness, `a long log:\n${'a log line that goes on\n'.repeat(1_600)}`, 60_000);
    const refused = harness.server.requests.filter((r) => r.rejected).length;
    expect(refused).toBeGreaterThan(0);
    expect(harness.core.currentAgent!.contextUsage((await harness.core.currentAgent!.profile()).settings).windowTokens).toBe(9_000);
  });
});
