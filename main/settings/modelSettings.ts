import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ApprovalModeSchema } from '../../common/approvals';
import { DEFAULT_GATE_BOUND, DEFAULT_REMINDER_ROUNDS } from '../../common/plan/types';
import { LanguageSchema, ThemeSchema } from '../../common/settings';
import { SandboxSettingSchema } from '../../common/sandbox';
import { CompactAtSchema, ContextWindowSchema, DEFAULT_COMPACT_AT, defaultContextWindow } from '../../common/contextWindow';
import { EffortSchema, ThinkingSettingSchema, type Effort, type ThinkingSetting } from '../../common/modelCapabilities';

// The SDK's own list retired claude-sonnet-4-5 on 30 November 2026; its newest Sonnet is the default.
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_MAX_TOKENS = 16_000;

export const SettingsFileSchema = z
  .object({
    apiKey: z.string().optional(),
    baseURL: z.string().url().optional(),
    model: z.string().min(1).optional(),
    maxTokens: z.number().int().min(1).max(1_000_000).optional(),
    reminderRounds: z.number().int().min(1).max(100).optional(),
    gateBound: z.number().int().min(0).max(20).optional(),
    /** The model's context window, in tokens (KEEL_CONTEXT_WINDOW wins). */
    contextWindow: ContextWindowSchema.optional(),
    /** Make room when the next request would pass this fraction of the window. */
    compactAt: CompactAtSchema.optional(),
    approvalMode: ApprovalModeSchema.optional(),
    /** auto, on or off (KEEL_THINKING wins). */
    thinking: ThinkingSettingSchema.optional(),
    /** The effort asked for where the model lists levels (KEEL_EFFORT wins). */
    effort: EffortSchema.optional(),
    theme: ThemeSchema.optional(),
    language: LanguageSchema.optional(),
    /** MCP servers by name; each is checked on its own (main/mcp/mcpConfig.ts), so one bad entry breaks nothing else. */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    /** MCP tools and servers the person allowed always: `tool:mcp__<server>__<tool>`, `mcp:<server>`. */
    mcpAlwaysAllow: z.array(z.string()).optional(),
    /** Hosts the agent may reach without asking, private addresses included (KEEL_NETWORK_ALLOW adds more). */
    network: z
      .object({ allow: z.array(z.string().max(300)).max(1000).optional() })
      .strict()
      .optional(),
    /** Whether agent commands run in the OS sandbox (KEEL_SANDBOX wins): see main/sandbox. */
    sandbox: SandboxSettingSchema.optional(),
    /** Helpers the agent delegates plan steps to (main/helpers/): how many at once, and when one counts as stalled. */
    helpers: z
      .object({ max: z.number().int().min(1).max(20).optional(), stallSeconds: z.number().int().min(1).max(86_400).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** What the agent runs with, after the environment has overridden the settings file. */
export interface ModelSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  model: string;
  maxTokens: number;
  reminderRounds: number;
  gateBound: number;
  /** Tokens the model can take in one request. */
  contextWindow: number;
  /** The fraction of the window at which Keel makes room before the next request. */
  compactAt: number;
  /** Whether the person set max tokens / the window, so the model catalogue does not override them. */
  maxTokensSet?: boolean;
  contextWindowSet?: boolean;
  thinking?: ThinkingSetting;
  /** The effort the person set; the session's choice in the status bar wins over it. */
  effort?: Effort;
  /** The values above that an environment variable set (KEEL_CONTEXT_WINDOW, KEEL_THINKING, KEEL_EFFORT), for Settings to say so. */
  fromEnvironment?: readonly EnvironmentSetValue[];
}

export type EnvironmentSetValue = 'contextWindow' | 'thinking' | 'effort';

export class SettingsError extends Error {}

export function settingsPath(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/** Reads `<dataDir>/settings.json`; a missing file is empty settings, a broken one is an error to fix. */
export function readSettingsFile(dataDir: string): SettingsFile {
  const path = settingsPath(dataDir);
  if (!existsSync(path)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SettingsError(`${path} is not valid JSON (${(error as Error).message}). Fix or delete the file.`);
  }
  const parsed = SettingsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ');
    throw new SettingsError(`${path} has invalid settings: ${issues}.`);
  }
  return parsed.data;
}

/** Saves the settings file readable only by its owner, atomically. */
export function writeSettingsFile(dataDir: string, settings: SettingsFile): void {
  const path = settingsPath(dataDir);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(SettingsFileSchema.parse(settings), null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, KEEL_MODEL (or ANTHROPIC_MODEL) override the file. */
export function resolveModelSettings(file: SettingsFile, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v.trim() !== '')?.trim();
  const model = pick(env.KEEL_MODEL, env.ANTHROPIC_MODEL, file.model) ?? DEFAULT_MODEL;
  const envWindow = contextWindowFromEnv(env);
  const thinking = ThinkingSettingSchema.safeParse(env.KEEL_THINKING?.trim().toLowerCase());
  const effort = EffortSchema.safeParse(env.KEEL_EFFORT?.trim().toLowerCase());
  return {
    apiKey: pick(env.ANTHROPIC_API_KEY, file.apiKey),
    baseURL: pick(env.ANTHROPIC_BASE_URL, file.baseURL),
    model,
    maxTokens: file.maxTokens ?? DEFAULT_MAX_TOKENS,
    reminderRounds: file.reminderRounds ?? DEFAULT_REMINDER_ROUNDS,
    gateBound: file.gateBound ?? DEFAULT_GATE_BOUND,
    contextWindow: envWindow ?? file.contextWindow ?? defaultContextWindow(model),
    compactAt: file.compactAt ?? DEFAULT_COMPACT_AT,
    maxTokensSet: file.maxTokens !== undefined,
    contextWindowSet: envWindow !== undefined || file.contextWindow !== undefined,
    thinking: thinking.success ? thinking.data : (file.thinking ?? 'auto'),
    ...(effort.success ? { effort: effort.data } : file.effort ? { effort: file.effort } : {}),
    fromEnvironment: [
      ...(envWindow !== undefined ? ['contextWindow' as const] : []),
      ...(thinking.success ? ['thinking' as const] : []),
      ...(effort.success ? ['effort' as const] : []),
    ],
  };
}

/** KEEL_CONTEXT_WINDOW as a whole number of tokens; anything else is ignored (the file or the default applies). */
export function contextWindowFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.KEEL_CONTEXT_WINDOW?.trim();
  if (!value) return undefined;
  const parsed = ContextWindowSchema.safeParse(Number(value.replace(/[_,]/g, '')));
  return parsed.success ? parsed.data : undefined;
}

/** Never show a key whole: enough to recognise it, not to use it. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(not set)';
  return key.length <= 8 ? '••••' : `${key.slice(0, 4)}…${key.slice(-2)}`;
}
