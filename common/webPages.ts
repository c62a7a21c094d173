/*
 * What the chat reads of a web address, and how it numbers an answer's sources, without the
 * schemas of common/webSearch.ts: the chat's chunk reads these, and zod (with every schema it
 * would build as it loads) stays out of it.
 */

/** The host of a result's address, as the chat names it ('' for an address that does not read). */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** An address the chat may link to: the window opens only web pages, outside itself. */
export function isWebPage(url: string): boolean {
  return /^https?:\/\//i.test(url) && hostOf(url) !== '';
}

/** The sources of an answer with `more` added: numbered in the order first cited, a page cited again keeps its number. */
export function addSources<Page extends { url: string }>(sources: readonly Page[], more: readonly Page[]): Page[] {
  const next = [...sources];
  for (const page of more) if (!next.some((known) => known.url === page.url)) next.push(page);
  return next;
}
