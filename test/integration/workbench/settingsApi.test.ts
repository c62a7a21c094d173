import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../common/contract';
import type { SettingsView } from '../../../common/settings';
import { KeelCore } from '../../../main/api/core';
import { dispatchRequest, type Handlers } from '../../../main/api/dispatch';
import { settingsHandlers } from '../../../main/api/handlers/settingsHandlers';
import type { KeyStore } from '../../../main/settings/keyStore';
import { settingsPath, writeSettingsFile } from '../../../main/settings/modelSettings';
import { SettingsService, settingsFileKeyStore } from '../../../main/settings/settingsService';
import { reply, startScriptedAnthropic, text, type ScriptedAnthropic } from '../../support/scriptedAnthropic';
import { value } from './support';

// The settings page over the contract: the key never leaves main, is stored owner-only, and the
// connection test answers in plain words.

const KEY = 'sk-ant-test-9f8e7d6c5b4a3210';
let dataDir: string;
let server: ScriptedAnthropic | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'keel-settings-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

interface SettingsApi {
  handlers: Handlers;
  settings: SettingsService;
}

/**
 * The contract's handlers as `keel web` serves them (the key in the owner-only settings file), with
 * the settings service given its own environment so that this process's (ANTHROPIC_API_KEY, …)
 * does not leak in.
 */
async function webCore(env: NodeJS.ProcessEnv = {}, keyStore: KeyStore = settingsFileKeyStore(dataDir)): Promise<SettingsApi> {
  const core = new KeelCore({ dataDir, host: 'web', version: 'test', keyStore });
  const settings = new SettingsService(dataDir, keyStore, env);
  await settings.init();
  return { settings, handlers: { ...core.handlers, ...settingsHandlers({ settings, refreshModels: () => undefined } as unknown as KeelCore) } };
}

async function getSettings(core: SettingsApi): Promise<SettingsView> {
  return value(await core.handlers['settings.get']({}));
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('settings.get', () => {
  it('never contains the key: only whether it is set, a masked form and where it comes from', async () => {
    writeSettingsFile(dataDir, { apiKey: KEY, model: 'claude-test' });
    const core = await webCore();
    const view = await getSettings(core);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(JSON.stringify(view)).not.toContain(KEY.slice(4, -2));
    expect(view.apiKey).toEqual({ set: true, masked: 'sk-a…10', source: 'settings_file', storage: 'plain_file' });
    expect(view).toMatchObject({ model: 'claude-test', baseURL: '', environmentOverrides: [] });
    // The same through the dispatcher, as the window asks.
    expect(JSON.stringify(await dispatchRequest(core.handlers, 'settings.get', {}))).not.toContain(KEY);
  });

  it('with no key anywhere, says so', async () => {
    const view = await getSettings(await webCore());
    expect(view.apiKey).toMatchObject({ set: false, masked: '(not set)', source: 'none' });
  });
});

describe('settings.update', () => {
  it('stores a key in the settings file, readable only by its owner, and never echoes it', async () => {
    const core = await webCore();
    const updated = value(await core.handlers['settings.update']({ apiKey: KEY, model: 'claude-other', maxTokens: 2048 }));
    expect(JSON.stringify(updated)).not.toContain(KEY);
    expect(updated).toMatchObject({ apiKey: { set: true, source: 'settings_file' }, model: 'claude-other', maxTokens: 2048 });
    const path = settingsPath(dataDir);
    expect(mode(path)).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ apiKey: KEY, model: 'claude-other', maxTokens: 2048 });

    // A later change of something else keeps the key and the mode.
    value(await core.handlers['settings.update']({ theme: 'dark' }));
    expect(mode(path)).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ apiKey: KEY, theme: 'dark' });

    // A restart reads it back; forgetting it removes it from the file.
    const again = await webCore();
    expect((await getSettings(again)).apiKey).toMatchObject({ set: true, source: 'settings_file' });
    expect((await getSettings(again)).theme).toBe('dark');
    const forgotten = value(await again.handlers['settings.update']({ apiKey: null }));
    expect(forgotten.apiKey).toMatchObject({ set: false, source: 'none' });
    expect(readFileSync(path, 'utf8')).not.toContain(KEY);
  });

  it('a settings file that was readable by others is made owner-only when Keel writes it', async () => {
    writeFileSync(settingsPath(dataDir), JSON.stringify({ model: 'claude-test' }), { mode: 0o644 });
    const core = await webCore();
    value(await core.handlers['settings.update']({ apiKey: KEY }));
    expect(mode(settingsPath(dataDir))).toBe(0o600);
  });

  it('"keep for this session only" uses the key without writing it anywhere', async () => {
    const core = await webCore();
    const view = value(await core.handlers['settings.update']({ apiKey: KEY, keyStorage: 'this_session' }));
    expect(view.apiKey).toMatchObject({ set: true, source: 'this_session' });
    expect(core.settings.modelSettings().apiKey).toBe(KEY);
    expect(readFileSync(settingsPath(dataDir), 'utf8')).not.toContain(KEY);
    expect((await getSettings(await webCore())).apiKey.set).toBe(false);
  });

  it('where the system has no secret store, a key is stored unprotected only when the person says so', async () => {
    const saved: (string | undefined)[] = [];
    const unprotected: KeyStore = {
      storage: 'unprotected',
      warning: 'No system keyring was found, so the key would be stored as plain text.',
      load: async () => undefined,
      save: async (key) => void saved.push(key),
    };
    const core = await webCore({}, unprotected);
    const refused = await dispatchRequest(core.handlers, 'settings.update', { apiKey: KEY });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.ok ? '' : refused.error.message).toContain('No system keyring');
    expect(saved).toEqual([]);
    const view = value(await core.handlers['settings.update']({ apiKey: KEY, keyStorage: 'unprotected' }));
    expect(saved).toEqual([KEY]);
    expect(view.apiKey).toMatchObject({ set: true, storage: 'unprotected', storageWarning: unprotected.warning });
  });

  it('lists what the environment overrides, and the environment wins', async () => {
    const envKey = 'sk-ant-from-environment-77';
    const core = await webCore({ ANTHROPIC_API_KEY: envKey, KEEL_MODEL: 'claude-env-model' });
    value(await core.handlers['settings.update']({ apiKey: KEY, model: 'claude-file-model' }));
    const view = await getSettings(core);
    expect(view.environmentOverrides.sort()).toEqual(['apiKey', 'model']);
    expect(view.apiKey).toMatchObject({ set: true, source: 'environment', masked: 'sk-a…77' });
    expect(view.model).toBe('claude-env-model');
    expect(JSON.stringify(view)).not.toContain(envKey);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(core.settings.modelSettings()).toMatchObject({ apiKey: envKey, model: 'claude-env-model' });
  });

  it('says where each value comes from: the environment, the settings file, or the default', async () => {
    const core = await webCore({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', KEEL_NETWORK_ALLOW: 'env.example.com', KEEL_WEB_SEARCH: 'off' });
    value(await core.handlers['settings.update']({ maxTokens: 9000, approvalMode: 'ask' }));
    const view = await getSettings(core);
    expect(view.sources).toEqual({
      baseURL: 'environment',
      model: 'default',
      maxTokens: 'settings_file',
      reminderRounds: 'default',
      gateBound: 'default',
      approvalMode: 'settings_file',
      contextWindow: 'default',
      compactAt: 'default',
      networkAllow: 'environment',
      webSearch: 'environment',
      thinking: 'default',
      effort: 'default',
    });
    expect(view.webSearch).toBe('off');
    expect(view.environmentOverrides).toContain('webSearch');
    value(await core.handlers['settings.update']({ networkAllow: ['docs.example.com'] }));
    expect((await getSettings(core)).sources.networkAllow).toBe('settings_file');
  });

  it('refuses a network.allow entry that is not a host as an error of that field, naming it, and changes nothing', async () => {
    const core = await webCore();
    value(await core.handlers['settings.update']({ networkAllow: ['kept.example.com'] }));
    const before = readFileSync(settingsPath(dataDir), 'utf8');
    const result = await dispatchRequest(core.handlers, 'settings.update', { networkAllow: ['ok.example.com', 'https://x.example.com/a', 'host:8080'] });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: ErrorCodes.badRequest,
        details: {
          invalid: ['https://x.example.com/a', 'host:8080'],
          fields: [{ path: 'networkAllow', message: expect.stringContaining('https://x.example.com/a, host:8080') }],
        },
      },
    });
    expect(readFileSync(settingsPath(dataDir), 'utf8')).toBe(before);
  });

  it('invalid updates are refused by the contract with a message that says which field and why, and change nothing', async () => {
    const core = await webCore();
    value(await core.handlers['settings.update']({ model: 'claude-kept', baseURL: 'http://127.0.0.1:9/' }));
    const before = readFileSync(settingsPath(dataDir), 'utf8');
    const cases: [unknown, string[]][] = [
      [{ baseURL: 'not a url' }, ['baseURL', 'URL']],
      [{ maxTokens: 0 }, ['maxTokens', '>=1']],
      [{ maxTokens: 2.5 }, ['maxTokens', 'int']],
      [{ model: '   ' }, ['model']],
      [{ approvalMode: 'yolo' }, ['approvalMode']],
      [{ reminderRounds: 0 }, ['reminderRounds']],
      [{ apiKey: '' }, ['apiKey']],
      [{ colour: 'red' }, ['colour']],
    ];
    for (const [patch, words] of cases) {
      const result = await dispatchRequest(core.handlers, 'settings.update', patch);
      expect(result, JSON.stringify(patch)).toMatchObject({ ok: false, error: { code: ErrorCodes.badRequest } });
      const message = result.ok ? '' : result.error.message;
      expect(message).toContain('settings.update');
      for (const word of words) expect(message, JSON.stringify(patch)).toContain(word);
    }
    expect(readFileSync(settingsPath(dataDir), 'utf8')).toBe(before);
  });

  it('a base URL must be http or https: anything else is refused with a clear message and changes nothing', async () => {
    const core = await webCore();
    for (const baseURL of ['ftp://example.com', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const result = await dispatchRequest(core.handlers, 'settings.update', { baseURL, model: 'claude-x' });
      expect(result, baseURL).toMatchObject({ ok: false });
      expect(result.ok ? '' : result.error.message).toMatch(/http/);
    }
    expect((await getSettings(core)).model).not.toBe('claude-x');
    expect(value(await core.handlers['settings.update']({ baseURL: 'https://proxy.example.com/anthropic' })).baseURL).toBe(
      'https://proxy.example.com/anthropic',
    );
    expect(value(await core.handlers['settings.update']({ baseURL: '' })).baseURL).toBe('');
  });
});

describe('the helpers settings', () => {
  it('shows the defaults, saves one value without the other, and refuses a value out of range', async () => {
    const core = await webCore();
    expect((await getSettings(core)).helpers).toEqual({ max: 4, stallSeconds: 300 });
    expect(value(await core.handlers['settings.update']({ helpers: { max: 2 } })).helpers).toEqual({ max: 2, stallSeconds: 300 });
    expect(value(await core.handlers['settings.update']({ helpers: { stallSeconds: 60 } })).helpers).toEqual({ max: 2, stallSeconds: 60 });
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8')).helpers).toEqual({ max: 2, stallSeconds: 60 });
    const refused = await dispatchRequest(core.handlers, 'settings.update', { helpers: { max: 0 } });
    expect(!refused.ok && refused.error.code).toBe(ErrorCodes.badRequest);
  });
});

describe('the context window settings', () => {
  it('are the default until set; a saved window and threshold are shown, reach the agent, and null goes back to the default', async () => {
    const core = await webCore();
    expect(await getSettings(core)).toMatchObject({ contextWindow: null, compactAt: null, contextDefaults: { contextWindow: 200_000, compactAt: 0.8 } });

    const saved = value(await dispatchRequest(core.handlers, 'settings.update', { contextWindow: 64_000, compactAt: 0.6 }));
    expect(saved).toMatchObject({ contextWindow: 64_000, compactAt: 0.6 });
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8'))).toMatchObject({ contextWindow: 64_000, compactAt: 0.6 });
    expect(core.settings.modelSettings()).toMatchObject({ contextWindow: 64_000, compactAt: 0.6 });

    const reset = value(await dispatchRequest(core.handlers, 'settings.update', { contextWindow: null, compactAt: null }));
    expect(reset).toMatchObject({ contextWindow: null, compactAt: null });
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8'))).not.toHaveProperty('contextWindow');
    expect(core.settings.modelSettings()).toMatchObject({ contextWindow: 200_000, compactAt: 0.8 });
  });

  it('out-of-range values are refused saying what is accepted, and change nothing', async () => {
    const core = await webCore();
    value(await core.handlers['settings.update']({ contextWindow: 50_000 }));
    const before = readFileSync(settingsPath(dataDir), 'utf8');
    const cases: [unknown, string][] = [
      [{ contextWindow: 999 }, 'contextWindow: must be a whole number of tokens from 1,000 to 100,000,000'],
      [{ contextWindow: 1_500.5 }, 'contextWindow: must be a whole number of tokens'],
      [{ contextWindow: '200k' }, 'contextWindow: must be a whole number of tokens'],
      [{ compactAt: 80 }, 'compactAt: must be from 0.1 to 0.95 of the window, that is 10% to 95%'],
      [{ compactAt: 0.05 }, 'compactAt: must be from 0.1 to 0.95'],
    ];
    for (const [patch, words] of cases) {
      const result = await dispatchRequest(core.handlers, 'settings.update', patch);
      expect(result.ok ? '' : result.error.message, JSON.stringify(patch)).toContain(words);
    }
    expect(readFileSync(settingsPath(dataDir), 'utf8')).toBe(before);
  });

  it('KEEL_CONTEXT_WINDOW wins and is listed as an override; one that is not a number overrides nothing', async () => {
    writeSettingsFile(dataDir, { contextWindow: 50_000 });
    const env = await getSettings(await webCore({ KEEL_CONTEXT_WINDOW: '30_000' }));
    expect(env).toMatchObject({ contextWindow: 30_000, environmentOverrides: ['contextWindow'] });
    const ignored = await getSettings(await webCore({ KEEL_CONTEXT_WINDOW: 'lots' }));
    expect(ignored).toMatchObject({ contextWindow: 50_000, environmentOverrides: [] });
  });
});

describe('the thinking and effort settings', () => {
  it('are the defaults until set; saved through the contract they reach the agent, and an effort of null goes back to the default', async () => {
    const core = await webCore();
    expect(await getSettings(core)).toMatchObject({ thinking: 'auto', effort: null, sources: { thinking: 'default', effort: 'default' } });

    const saved = value(await dispatchRequest(core.handlers, 'settings.update', { thinking: 'off', effort: 'high' }));
    expect(saved).toMatchObject({ thinking: 'off', effort: 'high', sources: { thinking: 'settings_file', effort: 'settings_file' } });
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8'))).toMatchObject({ thinking: 'off', effort: 'high' });
    expect(core.settings.modelSettings()).toMatchObject({ thinking: 'off', effort: 'high' });

    const reset = value(await dispatchRequest(core.handlers, 'settings.update', { effort: null }));
    expect(reset).toMatchObject({ effort: null, sources: { effort: 'default' } });
    expect(JSON.parse(readFileSync(settingsPath(dataDir), 'utf8'))).not.toHaveProperty('effort');
    expect(core.settings.modelSettings().effort).toBeUndefined();
  });

  it('refuses a value the contract does not know, naming the field, and changes nothing', async () => {
    const core = await webCore();
    value(await core.handlers['settings.update']({ effort: 'low' }));
    const before = readFileSync(settingsPath(dataDir), 'utf8');
    for (const patch of [{ effort: 'extreme' }, { thinking: 'sometimes' }, { thinking: null }]) {
      const result = await dispatchRequest(core.handlers, 'settings.update', patch);
      expect(result, JSON.stringify(patch)).toMatchObject({
        ok: false,
        error: { code: ErrorCodes.badRequest, details: { fields: [{ path: Object.keys(patch)[0] }] } },
      });
    }
    expect(readFileSync(settingsPath(dataDir), 'utf8')).toBe(before);
  });

  it('KEEL_THINKING and KEEL_EFFORT win over the file and are listed as overrides; values they do not know override nothing', async () => {
    writeSettingsFile(dataDir, { thinking: 'auto', effort: 'low' });
    const env = await getSettings(await webCore({ KEEL_THINKING: 'off', KEEL_EFFORT: 'max' }));
    expect(env).toMatchObject({ thinking: 'off', effort: 'max', sources: { thinking: 'environment', effort: 'environment' } });
    expect(env.environmentOverrides).toEqual(expect.arrayContaining(['thinking', 'effort']));
    const ignored = await getSettings(await webCore({ KEEL_THINKING: 'maybe', KEEL_EFFORT: 'lots' }));
    expect(ignored).toMatchObject({
      thinking: 'auto',
      effort: 'low',
      environmentOverrides: [],
      sources: { thinking: 'settings_file', effort: 'settings_file' },
    });
  });
});

describe('settings.testConnection', () => {
  it('against a working endpoint: ok, naming the model', async () => {
    server = await startScriptedAnthropic({ script: [reply(text('OK'))], apiKey: KEY });
    writeSettingsFile(dataDir, { apiKey: KEY, baseURL: server.baseURL, model: 'claude-test' });
    const core = await webCore();
    const result = value(await core.handlers['settings.testConnection']({}));
    expect(result.ok).toBe(true);
    expect(result.message).toContain('claude-test');
    expect(result.message).toContain('OK');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.model).toBe('claude-test');
    expect(server.errors).toEqual([]);
  });

  it('with a wrong key: not ok, says the key was refused (401) and to check it, without showing it', async () => {
    server = await startScriptedAnthropic({ script: [reply(text('OK'))], apiKey: KEY });
    const wrong = 'sk-ant-wrong-key-000000000';
    writeSettingsFile(dataDir, { apiKey: wrong, baseURL: server.baseURL, model: 'claude-test' });
    const core = await webCore();
    const result = value(await core.handlers['settings.testConnection']({}));
    expect(result.ok).toBe(false);
    expect(result.message).toContain('401');
    expect(result.message).toMatch(/check the api key/i);
    expect(result.message).not.toContain(wrong);
    expect(server.remaining).toBe(1);
  });

  it('uses the key just typed in the window, before any restart', async () => {
    server = await startScriptedAnthropic({ script: [reply(text('OK'))], apiKey: KEY });
    writeSettingsFile(dataDir, { baseURL: server.baseURL, model: 'claude-test' });
    const core = await webCore();
    expect(value(await core.handlers['settings.testConnection']({}))).toMatchObject({ ok: false, message: expect.stringMatching(/no api key/i) });
    value(await core.handlers['settings.update']({ apiKey: KEY }));
    expect(value(await core.handlers['settings.testConnection']({})).ok).toBe(true);
  });

  it('tests the values typed in the form, saving none of them, and answers with a code', async () => {
    server = await startScriptedAnthropic({ script: [reply(text('OK'))], apiKey: KEY });
    writeSettingsFile(dataDir, { model: 'claude-saved' });
    const core = await webCore();
    const wrong = value(await core.handlers['settings.testConnection']({ apiKey: 'sk-ant-wrong-key-000000000', baseURL: server.baseURL }));
    expect(wrong).toMatchObject({ ok: false, code: 'auth', model: 'claude-saved' });
    const right = value(await core.handlers['settings.testConnection']({ apiKey: KEY, baseURL: server.baseURL, model: 'claude-typed' }));
    expect(right).toMatchObject({ ok: true, code: 'connected', model: 'claude-typed', answer: 'OK' });
    expect(server.requests.at(-1)!.body.model).toBe('claude-typed');
    // Nothing was saved: the settings still have no key, no base URL and the saved model.
    expect(value(await core.handlers['settings.get']({}))).toMatchObject({ apiKey: { set: false }, baseURL: '', model: 'claude-saved' });
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(KEY);
    expect(value(await core.handlers['settings.testConnection']({ baseURL: 'not a url', apiKey: KEY }))).toMatchObject({ ok: false, code: 'bad_url' });
  });

  it('when nothing answers: not ok, says the connection failed and where', async () => {
    server = await startScriptedAnthropic({ script: [], apiKey: KEY });
    const baseURL = server.baseURL;
    await server.close();
    server = undefined;
    writeSettingsFile(dataDir, { apiKey: KEY, baseURL, model: 'claude-test' });
    const result = value(await (await webCore()).handlers['settings.testConnection']({}));
    expect(result.ok).toBe(false);
    expect(result.message).toContain(baseURL);
    expect(result.message).not.toContain(KEY);
  });
});
