import { DEFAULT_APPROVAL_MODE } from '../../common/approvals';
import { HELPER_DEFAULTS } from '../../common/helpers';
import { ErrorCodes } from '../../common/contract';
import { fail, ok, type Result } from '../../common/result';
import { DEFAULT_COMPACT_AT, defaultContextWindow } from '../../common/contextWindow';
import { SOURCED_SETTINGS, type SettingSource, type SettingsUpdate, type SettingsView, type SourcedSetting } from '../../common/settings';
import { loadAnthropicSdk } from '../models/anthropicSdk';
import { describeModelError, ModelError } from '../agent/modelClient';
import type { KeyStore } from './keyStore';
import { networkAllowFromEnv } from './networkSettings';
import { parseHostList } from '../network/hostNames';
import {
  contextWindowFromEnv,
  maskKey,
  readSettingsFile,
  resolveModelSettings,
  writeSettingsFile,
  type ModelSettings,
  type SettingsFile,
} from './modelSettings';

/** Connection values typed in the settings form and not saved yet. */
export interface ConnectionDraft {
  apiKey?: string;
  baseURL?: string;
  model?: string;
}

export interface ConnectionTest {
  ok: boolean;
  code: 'connected' | 'no_key' | 'bad_url' | ModelError['code'];
  model: string;
  answer?: string;
  message: string;
}

/** The settings file's own key field, as a KeyStore (for `keel web` and `keel run`). */
export function settingsFileKeyStore(dataDir: string): KeyStore {
  return {
    storage: 'plain_file',
    async load() {
      return readSettingsFile(dataDir).apiKey;
    },
    async save(key) {
      const { apiKey: _old, ...rest } = readSettingsFile(dataDir);
      writeSettingsFile(dataDir, key === undefined ? rest : { ...rest, apiKey: key });
    },
  };
}

/**
 * Settings as the window edits them: everything but the key lives in settings.json; the key in
 * the host's KeyStore (or only in memory, when the person chose so). The environment wins over both.
 */
export class SettingsService {
  private storedKey: string | undefined;
  private sessionKey: string | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly keyStore: KeyStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async init(): Promise<void> {
    this.storedKey = await this.keyStore.load();
  }

  private file(): SettingsFile {
    return readSettingsFile(this.dataDir);
  }

  modelSettings(): ModelSettings {
    const file = this.file();
    return resolveModelSettings({ ...file, apiKey: this.sessionKey ?? this.storedKey ?? file.apiKey }, this.env);
  }

  view(): SettingsView {
    const file = this.file();
    const model = this.modelSettings();
    const envKey = this.env.ANTHROPIC_API_KEY?.trim();
    const source = envKey
      ? 'environment'
      : this.sessionKey
        ? 'this_session'
        : this.storedKey
          ? this.keyStore.storage === 'plain_file'
            ? 'settings_file'
            : 'secure_storage'
          : 'none';
    const overrides = [
      ['ANTHROPIC_API_KEY', 'apiKey'],
      ['ANTHROPIC_BASE_URL', 'baseURL'],
      ['KEEL_MODEL', 'model'],
      ['ANTHROPIC_MODEL', 'model'],
    ].flatMap(([name, field]) => (this.env[name!]?.trim() ? [field!] : []));
    // A KEEL_CONTEXT_WINDOW that is not a number is ignored by the agent, so it overrides nothing here either.
    const envWindow = contextWindowFromEnv(this.env);
    if (envWindow !== undefined) overrides.push('contextWindow');
    // Likewise a KEEL_WEB_SEARCH, KEEL_THINKING or KEEL_EFFORT that is not one of their values.
    for (const field of ['webSearch', 'thinking', 'effort'] as const) if (model.fromEnvironment?.includes(field)) overrides.push(field);
    return {
      apiKey: {
        set: model.apiKey !== undefined,
        masked: maskKey(model.apiKey),
        source,
        storage: this.keyStore.storage,
        ...(this.keyStore.warning ? { storageWarning: this.keyStore.warning } : {}),
      },
      baseURL: model.baseURL ?? '',
      model: model.model,
      maxTokens: model.maxTokens,
      approvalMode: file.approvalMode ?? DEFAULT_APPROVAL_MODE,
      reminderRounds: model.reminderRounds,
      gateBound: model.gateBound,
      contextWindow: envWindow ?? file.contextWindow ?? null,
      compactAt: file.compactAt ?? null,
      contextDefaults: { contextWindow: defaultContextWindow(model.model), compactAt: DEFAULT_COMPACT_AT },
      theme: file.theme ?? 'system',
      language: file.language ?? 'system',
      networkAllow: file.network?.allow ?? [],
      networkAllowFromEnvironment: networkAllowFromEnv(this.env),
      webSearch: model.webSearch ?? 'auto',
      thinking: model.thinking ?? 'auto',
      effort: model.effort ?? null,
      environmentOverrides: [...new Set(overrides)],
      helpers: { max: file.helpers?.max ?? HELPER_DEFAULTS.max, stallSeconds: file.helpers?.stallSeconds ?? HELPER_DEFAULTS.stallSeconds },
      sources: settingSources(file, overrides, networkAllowFromEnv(this.env).length > 0),
    };
  }

  async update(patch: SettingsUpdate): Promise<Result<SettingsView>> {
    const { apiKey, keyStorage, baseURL, contextWindow, compactAt, effort, networkAllow, helpers, ...rest } = patch;
    // Checked before anything is saved: a refused update changes nothing.
    if (baseURL !== undefined && baseURL !== '' && !/^https?:\/\//i.test(baseURL)) {
      return fail(ErrorCodes.badRequest, `The base URL must start with http:// or https:// (got "${baseURL}"). Leave it empty to use the Anthropic API.`);
    }
    const allowList = networkAllow === undefined ? undefined : parseHostList(networkAllow);
    if (allowList && allowList.invalid.length > 0) {
      const message = `These are not host names or addresses: ${allowList.invalid.join(', ')}. List hosts only (example.com, 10.0.0.5, ::1), without a scheme, port or path.`;
      return fail(ErrorCodes.badRequest, message, { invalid: allowList.invalid, fields: [{ path: 'networkAllow', message }] });
    }
    if (apiKey !== undefined) {
      if (apiKey === null) {
        this.sessionKey = undefined;
        this.storedKey = undefined;
        await this.keyStore.save(undefined);
      } else if (keyStorage === 'this_session') {
        this.sessionKey = apiKey;
      } else {
        if (this.keyStore.storage === 'unprotected' && keyStorage !== 'unprotected') {
          return fail(
            ErrorCodes.keyStorage,
            `${this.keyStore.warning ?? 'This system has no secret store.'} Choose "keep for this session only", or store it unprotected.`,
          );
        }
        await this.keyStore.save(apiKey);
        this.storedKey = apiKey;
        this.sessionKey = undefined;
      }
    }
    const file = this.file();
    const next: SettingsFile = { ...file, ...rest };
    if (baseURL !== undefined) {
      if (baseURL === '') delete next.baseURL;
      else next.baseURL = baseURL;
    }
    // null is "back to the default": the key leaves the file rather than pinning today's default.
    if (contextWindow === null) delete next.contextWindow;
    else if (contextWindow !== undefined) next.contextWindow = contextWindow;
    if (compactAt === null) delete next.compactAt;
    else if (compactAt !== undefined) next.compactAt = compactAt;
    if (effort === null) delete next.effort;
    else if (effort !== undefined) next.effort = effort;
    if (allowList) next.network = { ...next.network, allow: allowList.hosts };
    if (helpers) next.helpers = { ...next.helpers, ...helpers };
    writeSettingsFile(this.dataDir, next);
    return ok(this.view());
  }

  /**
   * One tiny request, answered in plain words and as a code the window translates. `draft` holds
   * values typed in the form and not saved: they are tested as they would apply (the environment
   * still wins), and nothing is saved.
   */
  async testConnection(draft: ConnectionDraft = {}): Promise<ConnectionTest> {
    const file = this.file();
    const baseURL = draft.baseURL === undefined ? file.baseURL : draft.baseURL.trim() || undefined;
    const settings = resolveModelSettings(
      { ...file, apiKey: draft.apiKey ?? this.sessionKey ?? this.storedKey ?? file.apiKey, baseURL, model: draft.model ?? file.model },
      this.env,
    );
    const model = settings.model;
    if (!settings.apiKey) return { ok: false, code: 'no_key', model, message: 'No API key is set. Enter one above, or set ANTHROPIC_API_KEY.' };
    if (settings.baseURL && !/^https?:\/\//i.test(settings.baseURL)) {
      return { ok: false, code: 'bad_url', model, message: `The base URL must start with http:// or https:// (got "${settings.baseURL}").` };
    }
    const Anthropic = await loadAnthropicSdk();
    const client = new Anthropic({ apiKey: settings.apiKey, baseURL: settings.baseURL ?? null, maxRetries: 0, timeout: 20_000 });
    try {
      const reply = await client.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Reply with the word OK.' }] });
      const text = reply.content
        .flatMap((b) => (b.type === 'text' ? [b.text] : []))
        .join(' ')
        .trim()
        .slice(0, 60);
      return { ok: true, code: 'connected', model, ...(text ? { answer: text } : {}), message: `Connected: ${model} answered${text ? ` "${text}"` : ''}.` };
    } catch (error) {
      const described = describeModelError(error, settings);
      return { ok: false, code: described instanceof ModelError ? described.code : 'connection', model, message: described.message };
    }
  }
}

/** Each sourced setting: the environment where it overrides, else the file where it holds the key, else the default. */
function settingSources(file: SettingsFile, overrides: readonly string[], hostsFromEnvironment: boolean): Record<SourcedSetting, SettingSource> {
  const inFile: Record<SourcedSetting, boolean> = {
    baseURL: file.baseURL !== undefined,
    model: file.model !== undefined,
    maxTokens: file.maxTokens !== undefined,
    reminderRounds: file.reminderRounds !== undefined,
    gateBound: file.gateBound !== undefined,
    approvalMode: file.approvalMode !== undefined,
    contextWindow: file.contextWindow !== undefined,
    compactAt: file.compactAt !== undefined,
    networkAllow: (file.network?.allow?.length ?? 0) > 0,
    webSearch: file.webSearch !== undefined,
    thinking: file.thinking !== undefined,
    effort: file.effort !== undefined,
  };
  return Object.fromEntries(
    SOURCED_SETTINGS.map((name) => {
      const environment = name === 'networkAllow' ? hostsFromEnvironment && !inFile.networkAllow : overrides.includes(name);
      return [name, environment ? 'environment' : inFile[name] ? 'settings_file' : 'default'];
    }),
  ) as Record<SourcedSetting, SettingSource>;
}
