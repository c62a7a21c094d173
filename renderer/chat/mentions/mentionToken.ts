/** The `@…` being typed right before the caret: where its `@` is and what follows it; null when there is none. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[1]!.length - 1, query: match[1]! };
}

/** The text with the `@…` token replaced by the chosen path and a space; the caret goes after it. */
export function insertMention(text: string, caret: number, start: number, path: string): { text: string; caret: number } {
  const inserted = `@${path} `;
  const rest = text.slice(caret).replace(/^\S*/, '').replace(/^ /, '');
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}

/** The chosen paths still mentioned in the text (the person may have deleted some since). */
export function mentionsIn(text: string, chosen: Iterable<string>): string[] {
  return [...new Set(chosen)].filter((path) => new RegExp(`(^|\\s)@${escape(path)}(?=$|\\s|[.,;:!?)])`).test(text));
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
