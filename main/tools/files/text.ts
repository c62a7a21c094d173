/** Longest line shown whole; minified files and data dumps would otherwise flood the output. */
export const MAX_LINE_CHARS = 2000;

/**
 * A line as shown to the model: cut at `max` characters with a visible marker when it is longer
 * (or was already cut while reading, `alreadyCut`).
 */
export function cutLine(text: string, alreadyCut = false, max = MAX_LINE_CHARS): string {
  if (text.length <= max && !alreadyCut) return text;
  let end = Math.min(max, text.length);
  // Never split a surrogate pair: half an emoji is not a character.
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)} … [line cut at ${max} characters]`;
}

/** Lines in a text as an editor counts them: a final line feed does not start another line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
