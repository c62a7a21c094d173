import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { dispatchRequest } from '../../../main/api/dispatch';
import { estimateCost } from '../../../renderer/status/pricing';
import { SUMMARY_SYSTEM_MARK } from '../../../main/agent/compaction/summaryRequest';
import type { ModelSettings } from '../../../main/settings/modelSettings';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { applyAgentEvent } from '../../../common/chatReducer';
import { cited, cut, reply, systemText, text, thinking, toolUse, webSearch, type ScriptedModel, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { recordingTool, sendTask } from './scenario';

let harness: AgentHarness | undefined;
let extra: KeelCore | undefined;
afterEach(async () => {
  await extra?.dispose();
  extra = undefined;
  await harness?.close();
  harness = undefined;
});

const SEARCHING: ScriptedModel = { id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000, serverTools: ['web_search'] };
const PLAIN: ScriptedModel = { id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 };
const DOCS = { url: 'https://vitest.dev/guide/projects', title: 'Test Projects | Vitest' };
const BLOG = { url: 'https://blog.example.org/vitest', title: 'Vitest in practice' };
const ANSWER = 'Vitest runs each project with its own config.';

/** The scripted server is not Anthropic's host: `on` trusts its catalogue, as for a gateway. */
const settings = (webSearchSetting: ModelSettings['webSearch'] = 'on'): Partial<ModelSettings> => ({
  model: 'claude-sonnet-5-5',
  maxTokensSet: false,
  contextWindowSet: false,
  webSearch: webSearchSetting,
});

const searched = () => reply(...webSearch('vitest projects config', [DOCS, BLOG]), cited(ANSWER, DOCS));
const withoutCache = (blocks: unknown): unknown => (blocks as Record<string, unknown>[]).map(({ cache_control: _cache, ...block }) => block);
const assistantBlocks = (request: ScriptedRequest, n = 0): unknown =>
  withoutCache(request.body.messages.filter((m) => m.role === 'assistant')[n]!.content as ContentBlockParam[]);
const isSummary = (request: ScriptedRequest) => systemText(request).startsWith(SUMMARY_SYSTEM_MARK);

describe('the API’s web search, through the agent', () => {
  it('offers the tool, shows the search, and sends its blocks back exactly as they came', async () => {
    harness = await startAgentHarness([searched(), reply(text('It is vitest.config.ts.'))], { settings: settings(), server: { catalogue: [SEARCHING] } });
    expect((await sendTask(harness, 'How do Vitest projects work?')).outcome).toBe('done');
    const first = harness.server.requests[0]!;
    expect(first.body.tools).toContainEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 8 });

    // The chat is told of the query, then of the results; the answer is the cited text.
    const search = harness.events.find((e) => e.type === 'web_search');
    expect(search).toMatchObject({ query: 'vitest projects config' });
    expect(harness.events.find((e) => e.type === 'web_search_results')).toMatchObject({ id: (search as { id: string }).id, results: [DOCS, BLOG] });
    expect(harness.events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('')).toBe(ANSWER);
    expect(harness.events.find((e) => e.type === 'usage')).toMatchObject({ round: { webSearches: 1 }, session: { webSearches: 1 } });
    expect(estimateCost('claude-sonnet-5-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, webSearches: 3 })).toBeCloseTo(
      0.03,
    );

    expect((await sendTask(harness, 'And the config file?')).outcome).toBe('done');
    const second = harness.server.requests[1]!;
    expect(second.rejected).toBeUndefined();
    expect(assistantBlocks(second)).toEqual(harness.server.replies[0]!.content);
    expect(harness.server.errors).toEqual([]);

    // After a reload the chat shows the same row, query and results.
    const chat = await harness.core.handlers['chat.history']({});
    expect(chat.ok && chat.value.filter((item) => item.kind === 'web_search')).toEqual([
      { kind: 'web_search', id: (search as { id: string }).id, query: 'vitest projects config', results: [DOCS, BLOG] },
    ]);
  });

  it('a search inside a thinking tool loop: the continued turn goes back with its thinking and its search, as they came', async () => {
    const THINKER: ScriptedModel = { ...SEARCHING, thinking: ['adaptive'] };
    const look = recordingTool('look');
    harness = await startAgentHarness(
      [
        reply(thinking('Search first, then look at the folder.'), ...webSearch('vitest projects config', [DOCS]), toolUse('look', {})),
        reply(thinking('The docs and the folder agree.'), cited(ANSWER, DOCS)),
      ],
      { tools: [look], settings: settings(), server: { catalogue: [THINKER] } },
    );
    expect((await sendTask(harness, 'How do Vitest projects work here?')).outcome).toBe('done');
    const [first, second] = harness.server.requests;
    expect(first!.body.thinking).toEqual({ type: 'adaptive' });
    expect(second!.rejected).toBeUndefined();
    expect(assistantBlocks(second!)).toEqual(harness.server.replies[0]!.content);
    expect(look.calls).toHaveLength(1);
    expect(harness.server.errors).toEqual([]);
  });

  it('continues a paused turn without a message from the person', async () => {
    const paused = { ...reply(...webSearch('vitest projects config', [DOCS])), stop_reason: 'pause_turn' as const };
    harness = await startAgentHarness([paused, reply(cited(ANSWER, DOCS))], { settings: settings(), server: { catalogue: [SEARCHING] } });
    expect((await sendTask(harness, 'How do Vitest projects work?')).outcome).toBe('done');
    const [, continued] = harness.server.requests;
    expect(continued!.rejected).toBeUndefined();
    // The paused turn goes back last, as it came; no user message is added after it.
    expect(continued!.body.messages).toHaveLength(2);
    expect(continued!.body.messages[1]!.role).toBe('assistant');
    expect(withoutCache(continued!.body.messages[1]!.content)).toEqual(harness.server.replies[0]!.content);
    expect(harness.events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('')).toBe(ANSWER);
    expect(harness.server.errors).toEqual([]);
  });

  it('a stream cut after its search is tried again, and the chat keeps only the search that counted', async () => {
    // 11 events: the search and its results have streamed whole, then the connection drops.
    const broken = cut(11, ...webSearch('vitest projects config', [DOCS]), text('Never finished.'));
    harness = await startAgentHarness([broken, searched()], { settings: settings(), server: { catalogue: [SEARCHING] } });
    expect((await sendTask(harness, 'How do Vitest projects work?')).outcome).toBe('done');
    const shown = harness.events.filter((e) => e.type === 'web_search').map((e) => (e as { id: string }).id);
    expect(shown).toHaveLength(2);
    expect(harness.events.find((e) => e.type === 'stream_retry')).toMatchObject({ webSearches: [shown[0]] });
    let n = 0;
    const chat = harness.events.reduce((items, event) => applyAgentEvent(items, event, () => `i${n++}`), [] as ReturnType<typeof applyAgentEvent>);
    expect(chat.filter((item) => item.kind === 'web_search').map((item) => item.id)).toEqual([shown[1]]);
    expect(harness.server.requests).toHaveLength(2);
    expect(harness.server.errors).toEqual([]);
  });

  it('keeps the blocks unchanged through a resume and a compaction', async () => {
    harness = await startAgentHarness([reply('Hello.'), searched()], {
      settings: settings(),
      server: { catalogue: [SEARCHING], sideAnswer: (r) => (isSummary(r) ? reply('Summary: the person asked about Vitest projects.') : undefined) },
    });
    // A long first message, so that "Compact now" later has something older to summarise.
    expect((await sendTask(harness, `Some background first: ${'the project has many test folders. '.repeat(250)}`)).outcome).toBe('done');
    expect((await sendTask(harness, 'How do Vitest projects work?')).outcome).toBe('done');
    const session = harness.core.currentSession!;
    const searchedTurn = harness.server.replies[1]!.content;

    // Keel starts again on the same data folder and resumes the session.
    extra = new KeelCore({ dataDir: harness.dataDir, host: 'web', version: 'test', tools: () => [], settings: () => harness!.settings, headless: true });
    expect(extra.openWorkspace(harness.workspace, { sessionId: session.id }).ok).toBe(true);
    harness.server.push(reply(text('Resumed.')));
    expect((await extra.currentAgent!.runTask('And the config file?')).outcome).toBe('done');
    const resumed = harness.server.requests.at(-1)!;
    expect(resumed.rejected).toBeUndefined();
    expect(assistantBlocks(resumed, 1)).toEqual(searchedTurn);
    // The search is counted with the session's usage (billed per search), and kept across the resume.
    expect(session.usage.webSearches).toBe(1);
    expect(extra.currentSession!.usage.webSearches).toBe(1);

    // Compact now: the older part is summarised, the recent rounds with the search are sent as they came.
    const compacted = await extra.currentAgent!.compactNow();
    expect(compacted.map((c) => c.stage)).toContain('summarized');
    harness.server.push(reply(text('Still fine.')));
    expect((await extra.currentAgent!.runTask('One more?')).outcome).toBe('done');
    const after = harness.server.requests.filter((r) => !isSummary(r)).at(-1)!;
    expect(after.rejected).toBeUndefined();
    expect(JSON.stringify(after.body.messages)).not.toContain('many test folders. the project');
    const kept = after.body.messages.filter((m) => m.role === 'assistant').map((m) => withoutCache(m.content));
    expect(kept).toContainEqual(searchedTurn);
    expect(harness.server.errors).toEqual([]);
  });

  it('is not offered with the setting off, nor where the catalogue does not list it, nor by default off Anthropic’s host', async () => {
    for (const [setting, model] of [
      ['off', SEARCHING],
      ['on', PLAIN],
      ['auto', SEARCHING],
    ] as const) {
      harness = await startAgentHarness([reply('Hi.')], { settings: settings(setting), server: { catalogue: [model] } });
      expect((await sendTask(harness, 'hi')).outcome).toBe('done');
      expect(JSON.stringify(harness.server.requests[0]!.body.tools ?? [])).not.toContain('web_search');
      const profile = await harness.core.handlers['model.profile']({});
      expect(profile.ok && profile.value.webSearch.value).toBe(false);
      await harness.close();
      harness = undefined;
    }
  });

  it('a choice saved in Settings applies to the next task, and Settings says where it comes from', async () => {
    harness = await startAgentHarness([reply('Hi.'), reply('Hi again.')], {
      settingsFromFile: true,
      settings: { model: 'claude-sonnet-5-5' },
      server: { catalogue: [SEARCHING] },
    });
    const view = await dispatchRequest(harness.core.handlers, 'settings.get', {});
    expect(view).toMatchObject({ ok: true, value: { webSearch: 'auto', sources: { webSearch: 'default' } } });
    expect((await sendTask(harness, 'hi')).outcome).toBe('done');
    expect(JSON.stringify(harness.server.requests[0]!.body.tools ?? [])).not.toContain('web_search');

    const saved = await dispatchRequest(harness.core.handlers, 'settings.update', { webSearch: 'on' });
    expect(saved).toMatchObject({ ok: true, value: { webSearch: 'on', sources: { webSearch: 'settings_file' } } });
    expect((await sendTask(harness, 'hi again')).outcome).toBe('done');
    expect(harness.server.requests[1]!.body.tools).toContainEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 8 });
    expect(await harness.core.handlers['model.profile']({})).toMatchObject({ ok: true, value: { webSearch: { value: true, source: 'setting' } } });
  });
});
