export interface Match {
  /** Index in the text (UTF-16 code units). */
  index: number;
  /** 1-based line the match starts on. */
  line: number;
}

/** Non-overlapping occurrences of `needle`, left to right, with the line each starts on. */
export function findMatches(text: string, needle: string): Match[] {
  const matches: Match[] = [];
  let line = 1;
  let counted = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    line += countNewlines(text, counted, index);
    counted = index;
    matches.push({ index, line });
  }
  return matches;
}

/**
 * Replaces each match of `oldText` with `newText` and says which lines of the new text hold each
 * replacement (a deletion counts as the line it happened on).
 */
export function replaceAt(text: string, matches: readonly Match[], oldText: string, newText: string): { text: string; changedLines: [number, number][] } {
  const pieces: string[] = [];
  const changedLines: [number, number][] = [];
  // A replacement ending in a line break ends on the line before the break, not on the next one.
  const spannedBreaks = countNewlines(newText.replace(/\r?\n$/, ''), 0, newText.length);
  const addedBreaks = countNewlines(newText, 0, newText.length) - countNewlines(oldText, 0, oldText.length);
  let from = 0;
  let matchNumber = 0;
  for (const match of matches) {
    pieces.push(text.slice(from, match.index), newText);
    const start = match.line + matchNumber * addedBreaks;
    changedLines.push([start, start + spannedBreaks]);
    from = match.index + oldText.length;
    matchNumber++;
  }
  pieces.push(text.slice(from));
  return { text: pieces.join(''), changedLines };
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
