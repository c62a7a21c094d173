import { z } from 'zod';

/** Claude models take 200k tokens; an unknown model is assumed to take as much until it refuses. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** Keel makes room before a request that would pass this fraction of the window. */
export const DEFAULT_COMPACT_AT = 0.8;

/** Below this no system prompt and tools fit; above it no model exists. */
export const CONTEXT_WINDOW_MIN = 1_000;
export const CONTEXT_WINDOW_MAX = 100_000_000;
/** Below a tenth the history would be compacted all the time; above 95% the next answer may not fit. */
export const COMPACT_AT_MIN = 0.1;
export const COMPACT_AT_MAX = 0.95;

const windowRange = `a whole number of tokens from ${CONTEXT_WINDOW_MIN.toLocaleString('en')} to ${CONTEXT_WINDOW_MAX.toLocaleString('en')}`;
const compactRange = `from ${COMPACT_AT_MIN} to ${COMPACT_AT_MAX} of the window, that is ${COMPACT_AT_MIN * 100}% to ${COMPACT_AT_MAX * 100}%`;

/** The one check of a context window, wherever it comes from (the settings file, the window, the environment). */
export const ContextWindowSchema = z
  .number({ error: `must be ${windowRange}` })
  .int({ error: `must be ${windowRange}` })
  .min(CONTEXT_WINDOW_MIN, { error: `must be ${windowRange}` })
  .max(CONTEXT_WINDOW_MAX, { error: `must be ${windowRange}` });

/** The one check of the share of the window at which Keel makes room. */
export const CompactAtSchema = z
  .number({ error: `must be ${compactRange}` })
  .min(COMPACT_AT_MIN, { error: `must be ${compactRange}` })
  .max(COMPACT_AT_MAX, { error: `must be ${compactRange}` });

export function defaultContextWindow(_model: string): number {
  return DEFAULT_CONTEXT_WINDOW;
}

/**
 * A deterministic size estimate: about four characters of the request's JSON per token. It is
 * only used for what the API has not counted yet (what was added since the last answer, or a
 * history just compacted); the API's own usage figures are the baseline.
 */
export function estimateTokens(value: unknown): number {
  if (typeof value === 'string') return Math.ceil(value.length / 4);
  // A picture costs what its pixels cost, not its base64: counted as text, one pasted screenshot
  // would look like a million tokens and force a summary on every round.
  let images = 0;
  const text = JSON.stringify(value ?? '', (_key, field: unknown) => {
    if (typeof field === 'object' && field !== null && (field as { type?: unknown }).type === 'image') {
      images++;
      return 0;
    }
    return field;
  });
  return Math.ceil(text.length / 4) + images * IMAGE_TOKENS;
}

/**
 * The most one picture costs: the API charges about width × height / 750 tokens and scales
 * pictures to about 1.15 megapixels (a long edge of 1568 px), so about 1,600.
 */
export const IMAGE_TOKENS = 1_600;

/** How full the context is, for the meter in the status bar. */
export const ContextUsageSchema = z.object({
  /** Tokens the next request is expected to carry (the last request's, plus what was added since). */
  usedTokens: z.number().int().nonnegative(),
  windowTokens: z.number().int().positive(),
  /** Where Keel makes room. */
  compactAtTokens: z.number().int().positive(),
  /** Messages in the conversation: with none, "Compact now" has nothing to work on. */
  historyMessages: z.number().int().nonnegative().optional(),
});
export type ContextUsage = z.infer<typeof ContextUsageSchema>;

/** An instruction file given to the model in the system prompt (AGENTS.md, CLAUDE.md). */
export const InstructionFileSchema = z.object({
  path: z.string(),
  /** Where it applies: this workspace, or every workspace (the data folder's AGENTS.md). */
  scope: z.enum(['workspace', 'user']),
  chars: z.number().int().nonnegative(),
  /** Cut to fit the cap; the rest stays in the file. */
  truncated: z.boolean(),
});
export type InstructionFile = z.infer<typeof InstructionFileSchema>;

export const CompactionStageSchema = z.enum(['cleared', 'summarized']);
export const CompactionReasonSchema = z.enum(['threshold', 'refused', 'manual']);
export type CompactionReason = z.infer<typeof CompactionReasonSchema>;

/** What one compaction did, as the chat, `keel run` and the transcript tell it. */
export const CompactionInfoSchema = z.object({
  id: z.string(),
  stage: CompactionStageSchema,
  reason: CompactionReasonSchema,
  beforeTokens: z.number().int().nonnegative(),
  afterTokens: z.number().int().nonnegative(),
  /** Tool results replaced by a placeholder. */
  clearedResults: z.number().int().nonnegative(),
  /** Messages folded into the summary (stage 2). */
  summarizedMessages: z.number().int().nonnegative(),
  summary: z.string().optional(),
  /** What each cleared tool result says now (what was there, how to get it back). */
  placeholders: z.array(z.string()).optional(),
});
export type CompactionInfo = z.infer<typeof CompactionInfoSchema>;

/** One line for a person: what was done to make room. */
export function describeCompaction(info: CompactionInfo): string {
  const sizes = `${formatTokens(info.beforeTokens)} → ${formatTokens(info.afterTokens)} tokens`;
  if (info.stage === 'summarized') {
    const cleared = info.clearedResults > 0 ? ` and cleared ${info.clearedResults} old tool result${info.clearedResults === 1 ? '' : 's'}` : '';
    return `summarised ${info.summarizedMessages} earlier message${info.summarizedMessages === 1 ? '' : 's'}${cleared} (${sizes})`;
  }
  return `cleared ${info.clearedResults} old tool result${info.clearedResults === 1 ? '' : 's'} (${sizes})`;
}

function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}
