import { z } from 'zod';
import { addSources } from './webPages';

// Addresses the chat names and links to, and an answer's numbered sources: common/webPages.ts.
export { addSources, hostOf, isWebPage } from './webPages';

/** One search result as the chat shows it: a title and where it is, never its content. */
export const WebSearchHitSchema = z.object({ title: z.string(), url: z.string() });
export type WebSearchHit = z.infer<typeof WebSearchHitSchema>;

/** What a web_search_tool_result block says: its results, or the API's error code. */
export interface WebSearchOutcome {
  results: WebSearchHit[];
  errorCode?: string;
}

const ResultBlock = z.looseObject({ type: z.literal('web_search_result'), url: z.string(), title: z.string().nullish() });
const ErrorBlock = z.looseObject({ type: z.literal('web_search_tool_result_error'), error_code: z.string() });

/** The query of a server_tool_use block's input ('' when it has none). */
export function webSearchQuery(input: unknown): string {
  const query = typeof input === 'object' && input !== null ? (input as { query?: unknown }).query : undefined;
  return typeof query === 'string' ? query : '';
}

/** The content of a web_search_tool_result block, read for showing (the block itself is kept as it came). */
export function webSearchOutcome(content: unknown): WebSearchOutcome {
  const error = ErrorBlock.safeParse(content);
  if (error.success) return { results: [], errorCode: error.data.error_code };
  if (!Array.isArray(content)) return { results: [] };
  return {
    results: content.flatMap((entry) => {
      const hit = ResultBlock.safeParse(entry);
      return hit.success ? [{ title: hit.data.title ?? hit.data.url, url: hit.data.url }] : [];
    }),
  };
}

const CitationBlock = z.looseObject({ type: z.literal('web_search_result_location'), url: z.string(), title: z.string().nullish() });

/**
 * The web pages a text block of the answer cites (its `web_search_result_location` citations), in
 * order, each page once. Other kinds of citation (documents the person sent) name no page.
 */
export function citedPages(block: unknown): WebSearchHit[] {
  const citations = typeof block === 'object' && block !== null ? (block as { citations?: unknown }).citations : undefined;
  if (!Array.isArray(citations)) return [];
  return addSources(
    [],
    citations.flatMap((entry) => {
      const cite = CitationBlock.safeParse(entry);
      return cite.success ? [{ title: cite.data.title || cite.data.url, url: cite.data.url }] : [];
    }),
  );
}
