import { z } from 'zod';
import { ApprovalModeSchema } from './approvals';
import { CompactAtSchema, ContextWindowSchema } from './contextWindow';
import { EffortSchema, ThinkingSettingSchema, WebSearchSettingSchema } from './modelCapabilities';

export const ThemeSchema = z.enum(['system', 'light', 'dark']);
export const LanguageSchema = z.enum(['system', 'en', 'zh-CN']);
export type Theme = z.infer<typeof ThemeSchema>;
export type Language = z.infer<typeof LanguageSchema>;

/** Where the API key comes from. The key itself never crosses to the renderer. */
export const KeySourceSchema = z.enum(['environment', 'secure_storage', 'settings_file', 'this_session', 'none']);

/** Where a setting's value comes from, as the dialog shows it beside the field. */
export const SettingSourceSchema = z.enum(['default', 'settings_file', 'environment']);
export type SettingSource = z.infer<typeof SettingSourceSchema>;
/** The fields whose source the view reports. */
export const SOURCED_SETTINGS = [
  'baseURL',
  'model',
  'maxTokens',
  'reminderRounds',
  'gateBound',
  'approvalMode',
  'contextWindow',
  'compactAt',
  'networkAllow',
  'webSearch',
  'thinking',
  'effort',
] as const;
export type SourcedSetting = (typeof SOURCED_SETTINGS)[number];

/** The settings as the window shows them. */
export const SettingsViewSchema = z.object({
  apiKey: z.object({
    set: z.boolean(),
    /** e.g. "sk-a…9f": enough to recognise, not to use. */
    masked: z.string(),
    source: KeySourceSchema,
    /** How a key typed in the window would be kept. */
    storage: z.enum(['secure', 'plain_file', 'unprotected']),
    /** Said to the person when the OS offers no real secret store (Linux basic_text). */
    storageWarning: z.string().optional(),
  }),
  baseURL: z.string(),
  model: z.string(),
  maxTokens: z.number().int(),
  approvalMode: ApprovalModeSchema,
  reminderRounds: z.number().int(),
  gateBound: z.number().int(),
  /** The context window in tokens, when the settings file or KEEL_CONTEXT_WINDOW sets one; null: the default. */
  contextWindow: z.number().int().nullable(),
  /** The share of the window at which Keel makes room, when the settings file sets one; null: the default. */
  compactAt: z.number().nullable(),
  /** What applies when nothing is set (the window's for the model above). */
  contextDefaults: z.object({ contextWindow: z.number().int(), compactAt: z.number() }),
  theme: ThemeSchema,
  language: LanguageSchema,
  /** Hosts the agent reaches without asking, private addresses included: the settings file's `network.allow`. */
  networkAllow: z.array(z.string()),
  /** More of them from KEEL_NETWORK_ALLOW (added to the file's, not instead). */
  networkAllowFromEnvironment: z.array(z.string()),
  /** The API's own web search: auto, on or off (KEEL_WEB_SEARCH overrides the file). */
  webSearch: WebSearchSettingSchema,
  /** Whether the model is asked to think: auto, on or off (KEEL_THINKING overrides the file). */
  thinking: ThinkingSettingSchema,
  /** The effort asked for where the model lists levels (KEEL_EFFORT overrides the file); null: not set, the default applies. */
  effort: EffortSchema.nullable(),
  /** Settings the environment overrides (ANTHROPIC_API_KEY, …): editing them here has no effect. */
  environmentOverrides: z.array(z.string()),
  /** Helpers (common/helpers.ts): how many run at once, and after how many quiet seconds one is stopped as stalled. */
  helpers: z.object({ max: z.number().int(), stallSeconds: z.number().int() }),
  /** Where each value above comes from: Keel's default, the settings file, or an environment variable. */
  sources: z.record(z.enum(SOURCED_SETTINGS), SettingSourceSchema),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

export const SettingsUpdateSchema = z
  .object({
    /** A new key; null forgets the stored one. */
    apiKey: z.string().trim().min(1).max(500).nullable(),
    /** Where there is no secret store: keep the key for this session only, or store it unprotected. */
    keyStorage: z.enum(['default', 'this_session', 'unprotected']),
    baseURL: z.union([z.literal(''), z.string().url()]),
    model: z.string().trim().min(1).max(200),
    maxTokens: z.number().int().min(1).max(1_000_000),
    approvalMode: ApprovalModeSchema,
    reminderRounds: z.number().int().min(1).max(100),
    gateBound: z.number().int().min(0).max(20),
    /** null goes back to the default. */
    contextWindow: ContextWindowSchema.nullable(),
    /** A fraction of the window (0.8, not 80); null goes back to the default. */
    compactAt: CompactAtSchema.nullable(),
    theme: ThemeSchema,
    language: LanguageSchema,
    /** Replaces the file's `network.allow`: host names or addresses. */
    networkAllow: z.array(z.string().trim().min(1).max(300)).max(1000),
    webSearch: WebSearchSettingSchema,
    thinking: ThinkingSettingSchema,
    /** null goes back to the default. */
    effort: EffortSchema.nullable(),
    /** Either value alone; the other stays. */
    helpers: z
      .object({ max: z.number().int().min(1).max(20), stallSeconds: z.number().int().min(1).max(86_400) })
      .partial()
      .strict(),
  })
  .partial()
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;
