import { parsePatch, structuredPatch, type StructuredPatchHunk } from 'diff';

export interface DiffLine {
  kind: 'add' | 'del' | 'context' | 'hunk' | 'note';
  text: string;
  oldNumber?: number;
  newNumber?: number;
}

export interface DiffView {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** Lines of a unified diff (as an approval card carries it); a line that is not a diff is shown as a note. */
export function diffFromUnified(unified: string): DiffView {
  if (!/^@@ /m.test(unified)) return { lines: unified.trim() ? [{ kind: 'note', text: unified.trim() }] : [], added: 0, removed: 0 };
  try {
    return fromHunks(parsePatch(unified).flatMap((patch) => patch.hunks));
  } catch {
    return { lines: [{ kind: 'note', text: unified }], added: 0, removed: 0 };
  }
}

/**
 * The change an edit makes, old text to new text. These are snippets, not whole files: their line
 * numbers and hunk headers would mislead, so they are left out.
 */
export function diffFromTexts(before: string, after: string): DiffView {
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  const view = fromHunks(structuredPatch('a', 'b', ended(before), ended(after), '', '', { context: 3 }).hunks);
  return {
    ...view,
    lines: view.lines.filter((line) => line.kind !== 'hunk').map(({ kind, text }) => ({ kind, text })),
  };
}

/** A new file's content, every line added. */
export function diffOfNewFile(content: string): DiffView {
  const text = content.endsWith('\n') ? content.slice(0, -1) : content;
  const lines: DiffLine[] = text === '' ? [] : text.split('\n').map((line, index) => ({ kind: 'add', text: line, newNumber: index + 1 }));
  return { lines, added: lines.length, removed: 0 };
}

function fromHunks(hunks: StructuredPatchHunk[]): DiffView {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldNumber = hunk.oldStart;
    let newNumber = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') {
        added++;
        lines.push({ kind: 'add', text, newNumber: newNumber++ });
      } else if (mark === '-') {
        removed++;
        lines.push({ kind: 'del', text, oldNumber: oldNumber++ });
      } else if (mark === '\\') {
        lines.push({ kind: 'note', text: line });
      } else {
        lines.push({ kind: 'context', text, oldNumber: oldNumber++, newNumber: newNumber++ });
      }
    }
  }
  return { lines, added, removed };
}
