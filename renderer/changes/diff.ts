/** One row of a rendered unified diff. */
export interface DiffRow {
  kind: 'add' | 'del' | 'ctx' | 'hunk' | 'note';
  text: string;
  /** Line number in the file before the task (removed and context lines). */
  oldNo?: number;
  /** Line number in the agent's version (added and context lines). */
  newNo?: number;
}

export interface ParsedDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/;

/**
 * Parses the one-file unified diff `changes.list` gives (a `====` line, `--- a/…`, `+++ b/…`, then
 * hunks), numbering lines from the hunk headers. Returns null for the one-sentence descriptions
 * that stand in for binary or huge files (they start with a letter).
 */
export function parseDiff(diff: string): ParsedDiff | null {
  if (!/^[=\-+@\\ ]/.test(diff)) return null;
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  let inHunks = false;
  let oldNo = 0;
  let newNo = 0;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      inHunks = true;
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      rows.push({ kind: 'hunk', text: line });
      continue;
    }
    if (!inHunks) {
      if (line.startsWith('====') || line.startsWith('--- ') || line.startsWith('+++ ')) continue;
      rows.push({ kind: 'note', text: line });
      continue;
    }
    const sign = line[0];
    const text = line.slice(1);
    if (sign === '+') {
      rows.push({ kind: 'add', text, newNo: newNo++ });
      added++;
    } else if (sign === '-') {
      rows.push({ kind: 'del', text, oldNo: oldNo++ });
      removed++;
    } else if (sign === ' ') {
      rows.push({ kind: 'ctx', text, oldNo: oldNo++, newNo: newNo++ });
    } else {
      // "\ No newline at end of file", or a sentence the backend appended.
      rows.push({ kind: 'note', text: sign === '\\' ? line.slice(2) : line });
    }
  }
  return { rows, added, removed };
}
