import type { ModelFacts } from './modelFacts';

interface Family {
  pattern: RegExp;
  facts: Omit<ModelFacts, 'id' | 'source' | 'deprecated'>;
}

/**
 * Known Claude families, for endpoints without a catalogue (or one that does not list the
 * model). Only limits and thinking forms: an endpoint that does not list effort gets none.
 */
const FAMILIES: readonly Family[] = [
  {
    pattern: /^claude-(opus|sonnet|fable|mythos)-5(\b|[-.])/,
    facts: { maxInputTokens: 200_000, maxTokens: 128_000, thinking: { adaptive: true, enabled: false } },
  },
  { pattern: /^claude-haiku-5(\b|[-.])/, facts: { maxInputTokens: 200_000, maxTokens: 64_000, thinking: { adaptive: true, enabled: false } } },
  { pattern: /^claude-(opus|sonnet)-4-[6-9]/, facts: { maxInputTokens: 200_000, maxTokens: 64_000, thinking: { adaptive: true, enabled: true } } },
  { pattern: /^claude-(opus|sonnet|haiku)-4/, facts: { maxInputTokens: 200_000, maxTokens: 32_000, thinking: { adaptive: false, enabled: true } } },
  { pattern: /^claude-3-7-sonnet/, facts: { maxInputTokens: 200_000, maxTokens: 32_000, thinking: { adaptive: false, enabled: true } } },
  { pattern: /^claude-3/, facts: { maxInputTokens: 200_000, maxTokens: 8_192, thinking: { adaptive: false, enabled: false } } },
];

export function builtinFacts(model: string): ModelFacts | undefined {
  const family = FAMILIES.find((f) => f.pattern.test(model));
  return family ? { id: model, ...family.facts, deprecated: false, source: 'builtin' } : undefined;
}
