/** Compiles with the `u` flag when the pattern allows it (so `.` is a whole emoji), else without. */
export function compileSearchRegex(pattern: string, ignoreCase: boolean): RegExp | { error: string } {
  const flags = ignoreCase ? 'i' : '';
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        error: `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${reason}. Escape special characters such as ( ) [ ] { } . * + ? | \\ with a backslash to search for them literally.`,
      };
    }
  }
}

/** Characters of a matching line shown: enough for context, not a minified file. */
export const SHOWN_LINE_CHARS = 300;

/** The line, or for a long line a window around the match, so the match is always visible. */
export function around(text: string, index: number, length: number): string {
  if (text.length <= SHOWN_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(index - 100, text.length - SHOWN_LINE_CHARS));
  const end = Math.min(text.length, Math.max(start + SHOWN_LINE_CHARS, index + length));
  const shownEnd = Math.min(end, start + SHOWN_LINE_CHARS * 2);
  return `${start > 0 ? '…' : ''}${text.slice(start, shownEnd)}${shownEnd < text.length ? '…' : ''}`;
}
