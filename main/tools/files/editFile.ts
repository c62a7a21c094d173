import { z } from 'zod';
import type { Tool } from '../types';
import { withFileWriteLock } from '../../platform/fileWriteLock';
import { atomicWriteFile } from './atomicWrite';
import { resolveInWorkspace } from './confine';
import { describeUnrepresentable, dominantEol, encode } from './encoding';
import { describeFsError, failure, success } from './errors';
import { hardLinkNote, loadWholeText } from './existingFile';
import { MAX_WHOLE_FILE_BYTES } from './lineReader';
import { findMatches, replaceAt } from './matches';
import { formatSize } from './text';

const inputSchema = z.object({
  path: z.string().describe('File path, relative to the workspace.'),
  old_text: z
    .string()
    .describe('The exact text to replace, copied from the file (without read_file line numbers). Include enough lines to match one place only.'),
  new_text: z.string().describe('The text to put in its place (may be empty to delete old_text).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_text instead of requiring exactly one (default false).'),
});

export const editFileTool: Tool<typeof inputSchema> = {
  name: 'edit_file',
  kind: 'file_change',
  description: [
    'Replace text in an existing file in the workspace.',
    '`old_text` must match the file exactly (whitespace and indentation included, read_file line numbers left out) and, unless `replace_all` is true, at exactly one place;',
    'otherwise nothing is changed and the result says how many matches there were and on which lines, so you can add surrounding lines to make old_text unique.',
    "Line endings need no care: \\n in old_text/new_text matches and writes the file's own line endings (CRLF stays CRLF).",
    'The file keeps its encoding (UTF-8, UTF-16, GBK, …), BOM and permissions; the write is atomic.',
    'To create a file or replace all of it, use write_file. Returns the line numbers that changed.',
  ].join(' '),
  inputSchema,
  async run(input, context) {
    const resolved = await resolveInWorkspace(context.workspace, input.path, { writing: true, platform: context.platform, secrets: context.secrets });
    if (!resolved.ok) return failure(resolved.message);
    // Never between a helper's merge's check of this file and its write (fileWriteLock.ts).
    return withFileWriteLock(resolved.absolute, async () => {
      const shown = resolved.relative;
      if (input.old_text === '') {
        return failure(
          'old_text is empty, so there is nothing to find. Give the exact text to replace; to create a file or replace all of it, use write_file.',
        );
      }
      try {
        const file = await loadWholeText(resolved.absolute);
        switch (file.kind) {
          case 'missing':
            return failure(`"${shown}" does not exist. Check the path with list_files, or create the file with write_file.`);
          case 'folder':
            return failure(`"${shown}" is a folder, not a file. Use list_files to see what is inside it.`);
          case 'special':
            return failure(`"${shown}" is not a regular file (a device, socket or pipe) and cannot be edited.`);
          case 'too-large':
            return failure(
              `"${shown}" is ${formatSize(file.size)}; edit_file loads files whole and refuses above ${formatSize(MAX_WHOLE_FILE_BYTES)}. Ask the person to make this change. The file was not changed.`,
            );
          case 'binary':
            return failure(`"${shown}" looks like a binary file (${file.reason}); edit_file only edits text files.`);
        }

        const original = encode(file.text, file.encoding);
        if (!original.ok || !original.bytes.equals(file.bytes)) {
          // Re-encoding would silently change bytes the edit never touched.
          return failure(
            `"${shown}" has bytes that are not valid ${file.encoding.label}, so it cannot be rewritten without changing parts you did not edit. The file was not changed.`,
          );
        }

        const eol = dominantEol(file.text);
        const toFileEol = (s: string) => (eol === '\r\n' ? s.replace(/\r?\n/g, '\r\n') : s.replace(/\r\n/g, '\n'));
        // The file's own line endings first; the text exactly as given for files with mixed endings.
        let oldText = toFileEol(input.old_text);
        let newText = toFileEol(input.new_text);
        let matches = findMatches(file.text, oldText);
        if (matches.length === 0 && oldText !== input.old_text) {
          oldText = input.old_text;
          newText = input.new_text;
          matches = findMatches(file.text, oldText);
        }

        if (matches.length === 0) return failure(notFoundMessage(shown, input.old_text));
        if (matches.length > 1 && !input.replace_all) {
          return failure(
            `old_text matches ${matches.length} places in "${shown}" (${describeLines(matches.map((m) => [m.line, m.line] as const))}). ` +
              'Include more surrounding lines in old_text so it matches exactly one place, or set replace_all to true to replace every one. The file was not changed.',
          );
        }
        if (oldText === newText) return failure('old_text and new_text are the same, so there is nothing to change. The file was not changed.');

        const { text, changedLines } = replaceAt(file.text, matches, oldText, newText);
        const encoded = encode(text, file.encoding);
        if (!encoded.ok) {
          return failure(
            `"${shown}" is encoded as ${file.encoding.label}, which cannot hold ${describeUnrepresentable(encoded.unrepresentable)} from new_text. ` +
              `The file was not changed. Use characters ${file.encoding.label} has (or plain ASCII), or ask the person to convert the file to UTF-8.`,
          );
        }
        context.beforeFileChange?.(resolved.absolute);
        await atomicWriteFile(resolved.absolute, encoded.bytes, { mode: file.mode, signal: context.signal });
        const count = matches.length === 1 ? '1 occurrence' : `${matches.length} occurrences`;
        const linkNote = hardLinkNote(file.links);
        return success(`Edited ${shown}: replaced ${count} (now ${describeLines(changedLines)}${linkNote ? `; ${linkNote}` : ''}).`);
      } catch (error) {
        return failure(describeFsError(error, shown, 'editing', context.signal));
      }
    });
  },
};

function notFoundMessage(shown: string, oldText: string): string {
  const hint = /^\s*\d+\t/m.test(oldText)
    ? ' It looks like old_text includes line numbers from read_file; leave them out.'
    : ' Read the file again and copy the text exactly.';
  return (
    `old_text was not found in "${shown}" (0 matches). It must match the file exactly, including whitespace, indentation and line breaks.` +
    `${hint} The file was not changed.`
  );
}

/** "line 4", "lines 4, 10-12 and 30": capped so a replace_all over thousands of places stays short. */
function describeLines(ranges: readonly (readonly [number, number])[], max = 20): string {
  const parts = ranges.slice(0, max).map(([first, last]) => (first === last ? `${first}` : `${first}-${last}`));
  if (ranges.length > max) parts.push(`${ranges.length - max} more`);
  const plural = ranges.length > 1 || (ranges[0] !== undefined && ranges[0][0] !== ranges[0][1]);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
  return `${plural ? 'lines' : 'line'} ${list}`;
}
