import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../../main/models/parseCatalogue';
import { resolveProfile } from '../../../main/models/modelProfile';
import { resolveModelSettings } from '../../../main/settings/modelSettings';

const settings = (file = {}, env = {}) => resolveModelSettings({ apiKey: 'k', ...file }, env);
const listed = (caps: unknown, extra = {}) =>
  parseCatalogue({ data: [{ id: 'claude-sonnet-5-5', max_input_tokens: 30_000, max_tokens: 64_000, capabilities: caps, ...extra }] }).models[0];

describe('the model profile', () => {
  it('reads a malformed catalogue as a warning with no models, and skips entries that do not read', () => {
    expect(parseCatalogue({ data: 'models' })).toMatchObject({ models: [], warning: expect.stringContaining('not a model list') });
    const partly = parseCatalogue({ data: [{ id: 'a' }, { name: 'no id' }, 7] });
    expect(partly.models.map((m) => m.id)).toEqual(['a']);
    expect(partly.warning).toMatch(/2 model entries/);
  });

  it('takes window and max tokens from the endpoint unless the person set them, and says where each comes from', () => {
    const facts = listed(null);
    const fromEndpoint = resolveProfile({ settings: settings(), ...(facts ? { facts } : {}) });
    expect(fromEndpoint.settings).toMatchObject({ maxTokens: 64_000, contextWindow: 30_000 });
    expect(fromEndpoint.view).toMatchObject({
      maxTokens: { source: 'endpoint' },
      contextWindow: { source: 'endpoint' },
      thinking: { value: 'none', source: 'default' },
    });
    const set = resolveProfile({ settings: settings({ maxTokens: 8_000, contextWindow: 50_000 }), ...(facts ? { facts } : {}) });
    expect(set.view).toMatchObject({ maxTokens: { value: 8_000, source: 'setting' }, contextWindow: { value: 50_000, source: 'setting' } });
    const learned = resolveProfile({ settings: settings(), ...(facts ? { facts } : {}), learnedWindow: 20_000 });
    expect(learned.view.contextWindow).toEqual({ value: 20_000, source: 'learned' });
  });

  it('asks for thinking only in a listed form, and effort only from the listed levels', () => {
    const caps = {
      thinking: { types: { adaptive: { supported: true }, enabled: { supported: false } } },
      effort: { supported: true, low: { supported: true }, medium: { supported: false }, high: { supported: true } },
    };
    const facts = listed(caps)!;
    const auto = resolveProfile({ settings: settings(), facts });
    expect(auto.thinking).toEqual({ type: 'adaptive' });
    // medium is not listed: the nearest level below it.
    expect(auto.effort).toBe('low');
    expect(resolveProfile({ settings: settings({ effort: 'high' }), facts }).effort).toBe('high');
    expect(resolveProfile({ settings: settings({}, { KEEL_EFFORT: 'max' }), facts }).effort).toBe('high');
    expect(resolveProfile({ settings: settings({}, { KEEL_THINKING: 'off' }), facts }).thinking).toBeUndefined();
    expect(resolveProfile({ settings: settings(), facts, thinkingRefused: true }).thinking).toBeUndefined();
    // Adaptive thinking interleaves with tools by itself; a fixed budget needs the beta to.
    expect(auto.betas).toBeUndefined();
    const budgeted = resolveProfile({ settings: settings(), facts: listed({ thinking: { types: { enabled: { supported: true } } } })! });
    expect(budgeted.thinking).toMatchObject({ type: 'enabled' });
    expect(budgeted.betas).toEqual(['interleaved-thinking-2025-05-14']);
    expect(
      resolveProfile({ settings: settings({}, { KEEL_THINKING: 'off' }), facts: listed({ thinking: { types: { enabled: { supported: true } } } })! }).betas,
    ).toBeUndefined();
  });

  it("says which values an environment variable set, and that the status bar's effort is the session's", () => {
    const caps = { effort: { supported: true, low: { supported: true }, medium: { supported: true }, high: { supported: true } } };
    const facts = listed(caps)!;
    const env = resolveProfile({ settings: settings({ thinking: 'off' }, { KEEL_CONTEXT_WINDOW: '50000', KEEL_EFFORT: 'low' }), facts });
    expect(env.view).toMatchObject({ contextWindow: { value: 50_000, source: 'environment' }, effort: { value: 'low', source: 'environment' } });
    expect(env.view.thinking).toEqual({ value: 'none', source: 'setting' });
    const session = resolveProfile({ settings: settings({ effort: 'low' }), facts, sessionEffort: 'high' });
    expect(session.view.effort).toEqual({ value: 'high', levels: ['low', 'medium', 'high'], source: 'session' });
  });
});
