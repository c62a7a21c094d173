import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../types';
import { resolveInWorkspace } from './confine';
import { describeFsError, failure, success } from './errors';
import { namedEncoding } from './encoding';
import { readImageFile } from './readImage';
import { MAX_WHOLE_FILE_BYTES, readLines } from './lineReader';
import { cutLine, formatSize, MAX_LINE_CHARS } from './text';

export const READ_DEFAULT_LIMIT = 2000;
/** About what a model can take in at once without crowding out the rest of its context. */
export const READ_MAX_OUTPUT_BYTES = 100 * 1024;

const inputSchema = z.object({
  path: z.string().describe('File path, relative to the workspace (absolute paths inside the workspace also work).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('1-based line number to start at (default 1). Use the offset given at the end of the previous output to read on.'),
  limit: z.number().int().min(1).optional().describe(`Maximum number of lines to return (default ${READ_DEFAULT_LIMIT}).`),
  encoding: z
    .string()
    .optional()
    .describe(
      'Read the file in this encoding instead of the detected one, e.g. "GB18030", "Big5", "Shift_JIS", "EUC-KR", "Windows-1252", "UTF-16LE". Use it when the text of a non-UTF-8 file looks garbled.',
    ),
});

export const readFileTool: Tool<typeof inputSchema> = {
  name: 'read_file',
  kind: 'read',
  description: [
    'Read a text file in the workspace.',
    'Returns its lines numbered like `cat -n`: the line number, a tab, then the text (the numbers are not part of the file; leave them out of edit_file old_text).',
    `Returns up to ${READ_DEFAULT_LIMIT} lines and about 100 KB starting at \`offset\`; when more remains, the output ends with a note giving the file's line count and the offset to continue from.`,
    `Lines longer than ${MAX_LINE_CHARS} characters are cut and marked.`,
    'Decodes UTF-8, UTF-16 with a BOM, and legacy encodings such as GBK/GB18030, Shift_JIS or Windows-1252; a non-UTF-8 file starts with a line like `[encoding: GB18030]` naming the encoding assumed, which is not part of the file. If that text looks garbled, read it again with `encoding` set to the right one.',
    'PNG, JPEG, GIF and WebP pictures (up to 5 MB and 8000 px a side) are returned as an image you can see.',
    'Other binary files and folders are refused (use list_files to see a folder).',
  ].join(' '),
  inputSchema,
  async run(input, context) {
    const resolved = await resolveInWorkspace(context.workspace, input.path, { secrets: context.secrets });
    if (!resolved.ok) return failure(resolved.message);
    const shown = resolved.relative;
    if (input.encoding !== undefined && namedEncoding(input.encoding, Buffer.alloc(0)) === null) {
      return failure(
        `"${input.encoding}" is not an encoding Keel can read. Use a name such as UTF-8, GB18030, GBK, Big5, Shift_JIS, EUC-JP, EUC-KR, Windows-1252, ISO-8859-7 or UTF-16LE, or leave encoding out to detect it.`,
      );
    }
    const offset = Math.max(1, input.offset ?? 1);
    const limit = input.limit ?? READ_DEFAULT_LIMIT;
    try {
      const info = await stat(resolved.absolute);
      if (info.isDirectory()) {
        return failure(`"${shown}" is a folder, not a file. Use list_files with path "${shown}" to see what is inside it.`);
      }
      if (!info.isFile()) return failure(`"${shown}" is not a regular file (it is a device, socket or pipe) and cannot be read.`);
      const picture = await readImageFile(resolved.absolute, shown, info.size);
      if (picture) return picture;

      const lines: string[] = [];
      let outputBytes = 0;
      let full = false;
      let lastShown = offset - 1;
      const result = await readLines(resolved.absolute, {
        // Lines are kept up to what the cut needs: at most 4 bytes a character, plus one cut character.
        maxLineBytes: MAX_LINE_CHARS * 4 + 4,
        signal: context.signal,
        encoding: input.encoding,
        wants: (n) => !full && n >= offset && n < offset + limit,
        onLine: (line) => {
          const numbered = `${String(line.number).padStart(6)}\t${cutLine(line.text, line.cut)}`;
          const bytes = Buffer.byteLength(numbered) + 1;
          if (lines.length > 0 && outputBytes + bytes > READ_MAX_OUTPUT_BYTES) {
            full = true;
            return;
          }
          lines.push(numbered);
          outputBytes += bytes;
          lastShown = line.number;
        },
      });

      if (result.kind === 'binary') {
        return failure(`"${shown}" looks like a binary file (${result.reason}; ${formatSize(result.size)}), so it is not shown. Only text files can be read.`);
      }
      if (result.kind === 'too-large') {
        return failure(
          `"${shown}" is ${result.encoding.label} and ${formatSize(result.size)}; UTF-16 files are decoded whole, which is refused above ${formatSize(MAX_WHOLE_FILE_BYTES)}. Use search_text to find the lines you need.`,
        );
      }
      const total = result.totalLines;
      if (total === 0) return success(`(The file "${shown}" is empty.)`);
      if (offset > total) {
        return failure(`"${shown}" has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past the end. Use an offset from 1 to ${total}.`);
      }
      const header =
        input.encoding !== undefined
          ? [`[encoding: ${result.encoding.label}, as asked]`]
          : result.encoding.name === 'utf8'
            ? []
            : [`[encoding: ${result.encoding.label}]`];
      const footer: string[] = [];
      if (lastShown < total) {
        const why = full ? `; the output was cut at about ${formatSize(READ_MAX_OUTPUT_BYTES)}` : '';
        footer.push(`(Showing lines ${offset}-${lastShown} of ${total}${why}. To read on, call read_file with offset ${lastShown + 1}.)`);
      }
      return success([...header, ...lines, ...footer].join('\n'));
    } catch (error) {
      return failure(describeFsError(error, shown, 'reading', context.signal));
    }
  },
};
