import type { Usage } from '../../common/agentEvents';

/**
 * A session's cost, ESTIMATED from Anthropic's published list prices per model family, in US
 * dollars per million tokens (input, output, cache write (5-minute), cache read), as they stood
 * when this table was written. Discounts, batch or regional prices, long-context surcharges and
 * later price changes are unknown here: the bill is what counts. Models this table does not know
 * (other providers, test models) get no estimate; the status bar then shows tokens only.
 * Pure: no I/O.
 */

export interface Prices {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

interface PriceRow {
  family: 'opus' | 'sonnet' | 'haiku';
  /** Tried in order against the lower-cased model name; the first match wins. */
  match: RegExp;
  prices: Prices;
}

export const PRICE_TABLE: readonly PriceRow[] = [
  { family: 'opus', match: /opus-4-[5-9](?!\d)|opus-[5-9](?!\d)/, prices: { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 } },
  { family: 'opus', match: /opus/, prices: { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 } },
  { family: 'sonnet', match: /sonnet/, prices: { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 } },
  { family: 'haiku', match: /haiku-4|haiku-[5-9](?!\d)/, prices: { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 } },
  { family: 'haiku', match: /3-5-haiku|haiku-3-5/, prices: { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 } },
  { family: 'haiku', match: /haiku/, prices: { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 } },
];

export function pricesFor(model: string): Prices | null {
  const name = model.toLowerCase();
  return PRICE_TABLE.find((row) => row.match.test(name))?.prices ?? null;
}

/** The API's web search: US dollars per search ($10 per 1,000), on top of the tokens. */
export const WEB_SEARCH_PRICE = 10 / 1_000;

/** The estimated cost in US dollars, or null when the model's prices are unknown. */
export function estimateCost(model: string, usage: Usage): number | null {
  const prices = pricesFor(model);
  if (!prices) return null;
  return (
    (usage.inputTokens * prices.input +
      usage.outputTokens * prices.output +
      usage.cacheCreationTokens * prices.cacheWrite +
      usage.cacheReadTokens * prices.cacheRead) /
      1_000_000 +
    (usage.webSearches ?? 0) * WEB_SEARCH_PRICE
  );
}
