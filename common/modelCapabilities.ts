import { z } from 'zod';

/** The effort levels the API knows, lowest first. */
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export const EffortSchema = z.enum(EFFORT_LEVELS);
export type Effort = z.infer<typeof EffortSchema>;
export const DEFAULT_EFFORT: Effort = 'medium';

/** auto: think where the endpoint lists it; on: also where it does not say; off: never. */
export const ThinkingSettingSchema = z.enum(['auto', 'on', 'off']);
export type ThinkingSetting = z.infer<typeof ThinkingSettingSchema>;

/**
 * The API's server-side web search. auto: offered where the endpoint's catalogue lists it for the
 * model and the endpoint is Anthropic's own; on: also through another endpoint whose catalogue
 * lists it (a gateway in front of Anthropic's API); off: never.
 */
export const WebSearchSettingSchema = z.enum(['auto', 'on', 'off']);
export type WebSearchSetting = z.infer<typeof WebSearchSettingSchema>;

/**
 * Where a value the agent runs with came from, as Settings shows it: the settings file, an
 * environment variable, the status bar's choice for this session, the endpoint's catalogue, what
 * the service taught (a refusal), Keel's built-in table of known models, or Keel's default.
 */
export const ValueSourceSchema = z.enum(['setting', 'environment', 'session', 'endpoint', 'learned', 'builtin', 'default']);
export type ValueSource = z.infer<typeof ValueSourceSchema>;

/** What the agent runs with for the current model, and where each value comes from. */
export const ModelProfileViewSchema = z.object({
  model: z.string(),
  contextWindow: z.object({ value: z.number().int(), source: ValueSourceSchema }),
  maxTokens: z.object({ value: z.number().int(), source: ValueSourceSchema }),
  /** The form asked for; 'none' when thinking is off or the model has none. */
  thinking: z.object({ value: z.enum(['adaptive', 'enabled', 'none']), source: ValueSourceSchema }),
  /** Whether the model is offered the API's web search, and what decided it. */
  webSearch: z.object({ value: z.boolean(), source: ValueSourceSchema }),
  /** null: the model lists no effort levels, so none is sent. */
  effort: z.object({ value: EffortSchema.nullable(), levels: z.array(EffortSchema), source: ValueSourceSchema }),
  /** Active models the endpoint lists (for the model field), and whether this one is deprecated. */
  models: z.array(z.object({ id: z.string(), deprecated: z.boolean() })),
  deprecated: z.boolean(),
  /** A catalogue that could not be read: said, never a failure. */
  warning: z.string().optional(),
});
export type ModelProfileView = z.infer<typeof ModelProfileViewSchema>;
