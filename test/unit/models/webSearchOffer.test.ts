import { describe, expect, it } from 'vitest';
import { renderConversation } from '../../../main/agent/compaction/summaryRequest';
import { RunPrinter } from '../../../main/cli/runPrinter';
import { parseCatalogue } from '../../../main/models/parseCatalogue';
import { resolveProfile } from '../../../main/models/modelProfile';
import { isAnthropicEndpoint } from '../../../main/models/webSearchOffer';
import { resolveModelSettings } from '../../../main/settings/modelSettings';

const settings = (file = {}, env = {}) => resolveModelSettings({ apiKey: 'k', ...file }, env);
const facts = (webSearch: boolean) =>
  parseCatalogue({ data: [{ id: 'claude-sonnet-5-5', capabilities: { server_tools: { web_search: { supported: webSearch } } } }] }).models[0]!;

describe('when the model is offered the API’s web search', () => {
  it('Anthropic’s endpoint is no base URL or api.anthropic.com', () => {
    expect(isAnthropicEndpoint(undefined)).toBe(true);
    expect(isAnthropicEndpoint('https://api.anthropic.com')).toBe(true);
    expect(isAnthropicEndpoint('https://API.anthropic.com/v1/')).toBe(true);
    expect(isAnthropicEndpoint('https://gateway.example.com')).toBe(false);
    expect(isAnthropicEndpoint('https://api.anthropic.com.evil.example')).toBe(false);
    expect(isAnthropicEndpoint('not a url')).toBe(false);
  });

  it('auto: where the catalogue lists it and the endpoint is Anthropic’s; on: any endpoint that lists it; off: never', () => {
    const tool = { type: 'web_search_20250305', name: 'web_search', max_uses: 8 };
    expect(resolveProfile({ settings: settings(), facts: facts(true) })).toMatchObject({
      webSearch: tool,
      view: { webSearch: { value: true, source: 'endpoint' } },
    });
    const gateway = settings({ baseURL: 'https://gateway.example.com' });
    expect(resolveProfile({ settings: gateway, facts: facts(true) }).webSearch).toBeUndefined();
    expect(resolveProfile({ settings: { ...gateway, webSearch: 'on' }, facts: facts(true) }).view.webSearch).toEqual({ value: true, source: 'setting' });
    expect(resolveProfile({ settings: settings({}, { KEEL_WEB_SEARCH: 'off' }), facts: facts(true) }).view.webSearch).toEqual({
      value: false,
      source: 'environment',
    });
    expect(resolveProfile({ settings: settings(), facts: facts(false) }).view.webSearch).toEqual({ value: false, source: 'endpoint' });
    // The built-in table cannot know what an endpoint runs.
    expect(resolveProfile({ settings: settings({ webSearch: 'on' }) }).webSearch).toBeUndefined();
  });

  it('keel run prints the query and the results’ hosts; a summary names the search and its results', () => {
    let out = '';
    const printer = new RunPrinter({ write: (t) => (out += t) });
    printer.event({ type: 'web_search', id: 's', query: 'vitest projects' });
    printer.event({ type: 'web_search_results', id: 's', results: [{ title: 'Vitest', url: 'https://vitest.dev/guide' }] });
    printer.event({ type: 'web_search_results', id: 't', results: [], errorCode: 'max_uses_exceeded' });
    expect(out).toBe('● web search "vitest projects"\n  ⎿ 1 result: vitest.dev\n  ✗ the search failed (max_uses_exceeded)\n');

    const rendered = renderConversation([
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 's', name: 'web_search', input: { query: 'vitest projects' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 's',
            content: [{ type: 'web_search_result', url: 'https://vitest.dev/guide', title: 'Vitest', encrypted_content: 'x' }],
          },
        ],
      },
    ]);
    expect(rendered).toContain('→ web_search {"query":"vitest projects"}');
    expect(rendered).toContain('← results: Vitest <https://vitest.dev/guide>');
  });
});
