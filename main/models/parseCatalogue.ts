import { z } from 'zod';
import { EFFORT_LEVELS, type Effort } from '../../common/modelCapabilities';
import type { ModelFacts } from './modelFacts';

const Support = z.object({ supported: z.boolean() }).nullish();
const Tokens = z.number().int().positive().nullish();
const Capabilities = z
  .object({
    thinking: z
      .object({ types: z.object({ adaptive: Support, enabled: Support }).partial() })
      .partial()
      .nullish(),
    effort: z.object({ supported: z.boolean() }).catchall(z.unknown()).nullish(),
    server_tools: z.object({ web_search: Support }).partial().nullish(),
  })
  .partial();
const Model = z.object({
  id: z.string().min(1),
  lifecycle: z.string().nullish(),
  max_input_tokens: Tokens,
  max_tokens: Tokens,
  capabilities: z.unknown().optional(),
});

export interface ParsedCatalogue {
  models: ModelFacts[];
  /** Said to the person: the catalogue, or part of it, could not be read. */
  warning?: string;
}

/**
 * The endpoint's GET /v1/models answer as facts per model. Anything that does not read is left
 * out and said in one warning: a malformed catalogue never stops a task.
 */
export function parseCatalogue(body: unknown): ParsedCatalogue {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data))
    return { models: [], warning: 'The endpoint answered GET /v1/models with something that is not a model list; Keel uses its defaults.' };
  const models: ModelFacts[] = [];
  let skipped = 0;
  for (const entry of data) {
    const parsed = Model.safeParse(entry);
    if (!parsed.success) {
      skipped++;
      continue;
    }
    const m = parsed.data;
    const caps = Capabilities.safeParse(m.capabilities ?? {});
    if (m.capabilities != null && !caps.success) skipped++;
    const capabilities = m.capabilities != null && caps.success ? caps.data : undefined;
    const facts: ModelFacts = { id: m.id, deprecated: m.lifecycle === 'deprecated' || m.lifecycle === 'retired', source: 'endpoint' };
    if (m.max_input_tokens) facts.maxInputTokens = m.max_input_tokens;
    if (m.max_tokens) facts.maxTokens = m.max_tokens;
    if (capabilities?.thinking?.types) {
      facts.thinking = { adaptive: capabilities.thinking.types.adaptive?.supported === true, enabled: capabilities.thinking.types.enabled?.supported === true };
    }
    if (capabilities?.effort) facts.effort = effortLevels(capabilities.effort);
    if (capabilities?.server_tools) facts.webSearch = capabilities.server_tools.web_search?.supported === true;
    if (m.lifecycle !== 'retired') models.push(facts);
  }
  return skipped > 0
    ? { models, warning: `${skipped} model entr${skipped === 1 ? 'y' : 'ies'} of the endpoint's catalogue could not be read and were left out.` }
    : { models };
}

function effortLevels(effort: { supported: boolean } & Record<string, unknown>): Effort[] {
  if (!effort.supported) return [];
  return EFFORT_LEVELS.filter((level) => {
    const entry = effort[level];
    return typeof entry === 'object' && entry !== null && (entry as { supported?: unknown }).supported === true;
  });
}
