import { realpath, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../types';
import { resolveInWorkspace } from './confine';
import { describeFsError, failure, success } from './errors';
import { globMatcher, type GlobMatcher } from './glob';
import { readLines } from './lineReader';
import { walkFiles } from './walk';

export const SEARCH_DEFAULT_RESULTS = 200;
export const SEARCH_MAX_RESULTS = 2000;
/** Characters of a matching line shown: enough for context, not a minified file. */
const SHOWN_LINE_CHARS = 300;
/** Bytes of a line searched: a match further into a giant line is not found, but memory stays bounded. */
const SEARCHED_LINE_BYTES = 64 * 1024;

const inputSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression to find, matched against each line (for example "function\\s+load" or "TODO|FIXME").'),
  path: z.string().optional().describe('Folder (or single file) to search, relative to the workspace (default: the whole workspace).'),
  glob: z.string().optional().describe('Only search files whose path matches this glob, relative to `path`; without a slash it matches file names at any depth: "*.ts".'),
  ignore_case: z.boolean().optional().describe('Match regardless of letter case (default false).'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_RESULTS)
    .optional()
    .describe(`Maximum number of matching lines to return (default ${SEARCH_DEFAULT_RESULTS}).`),
});

export const searchTextTool: Tool<typeof inputSchema> = {
  name: 'search_text',
  description: [
    'Search the text files of the workspace for lines matching a regular expression (JavaScript syntax).',
    'Returns one line per match: `path:line: text`, path relative to the workspace, in path order; long lines are shortened around the match.',
    'Files ignored by .gitignore, .git, node_modules and binary files are skipped; files in legacy encodings (GBK, Shift_JIS, …) are decoded first.',
    `Returns at most max_results (default ${SEARCH_DEFAULT_RESULTS}) matches, with a note when there were more. Use read_file with an offset to see a match in context.`,
  ].join(' '),
  inputSchema,
  async run(input, context) {
    const regex = compile(input.pattern, input.ignore_case ?? false);
    if ('error' in regex) return failure(regex.error);
    let matchesGlob: GlobMatcher | undefined;
    if (input.glob !== undefined) {
      const matcher = globMatcher(input.glob);
      if ('error' in matcher) return failure(matcher.error);
      matchesGlob = matcher;
    }
    const resolved = await resolveInWorkspace(context.workspace, input.path?.trim() || '.');
    if (!resolved.ok) return failure(resolved.message);
    const shown = resolved.relative;
    const maxResults = input.max_results ?? SEARCH_DEFAULT_RESULTS;
    const results: string[] = [];
    const tooLarge: string[] = [];
    let more = false;

    const unreadable: string[] = [];

    /** Searches one file; false once max_results is reached. */
    const searchFile = async (absolute: string, relative: string, skipUnreadable: boolean): Promise<boolean> => {
      let outcome;
      try {
        outcome = await readLines(absolute, {
        maxLineBytes: SEARCHED_LINE_BYTES,
        signal: context.signal,
        wants: () => true,
        onLine: (line) => {
          const found = regex.exec(line.text);
          if (!found) return true;
          if (results.length === maxResults) {
            more = true;
            return false;
          }
          results.push(`${relative}:${line.number}: ${around(line.text, found.index, found[0].length)}`);
          return true;
        },
      });
      } catch (error) {
        // One unreadable file (permissions, deleted meanwhile) should not sink a whole-workspace search.
        if (!skipUnreadable || context.signal.aborted) throw error;
        unreadable.push(relative);
        return true;
      }
      if (outcome.kind === 'too-large') tooLarge.push(relative);
      return !more;
    };

    try {
      const info = await stat(resolved.absolute);
      if (info.isFile()) {
        await searchFile(resolved.absolute, shown, false);
      } else if (info.isDirectory()) {
        const root = await realpath(context.workspace);
        await walkFiles(
          root,
          resolved.absolute,
          (file) => (matchesGlob && !matchesGlob(file.fromStart) ? true : searchFile(file.absolute, file.relative, true)),
          context.signal,
        );
      } else {
        return failure(`"${shown}" is not a regular file or folder, so it cannot be searched.`);
      }
    } catch (error) {
      return failure(describeFsError(error, shown, 'searching', context.signal));
    }

    const notes: string[] = [];
    if (more) notes.push(`(Stopped at ${maxResults} matches; there are more. Narrow the pattern, path or glob, or raise max_results.)`);
    if (tooLarge.length > 0) notes.push(`(Not searched, UTF-16 files too large to decode whole: ${tooLarge.slice(0, 10).join(', ')}${tooLarge.length > 10 ? ', …' : ''}.)`);
    if (unreadable.length > 0) notes.push(`(Could not read: ${unreadable.slice(0, 10).join(', ')}${unreadable.length > 10 ? ', …' : ''}.)`);
    if (results.length === 0) {
      const where = shown === '.' ? 'the workspace' : `"${shown}"`;
      const filter = input.glob !== undefined ? ` (files matching "${input.glob}")` : '';
      return success([`No matches for /${input.pattern}/ in ${where}${filter}.`, ...notes].join('\n'));
    }
    return success([...results, ...notes].join('\n'));
  },
};

/** Compiles with the `u` flag when the pattern allows it (so `.` is a whole emoji), else without. */
function compile(pattern: string, ignoreCase: boolean): RegExp | { error: string } {
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

/** The line, or for a long line a window around the match, so the match is always visible. */
function around(text: string, index: number, length: number): string {
  if (text.length <= SHOWN_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(index - 100, text.length - SHOWN_LINE_CHARS));
  const end = Math.min(text.length, Math.max(start + SHOWN_LINE_CHARS, index + length));
  const shownEnd = Math.min(end, start + SHOWN_LINE_CHARS * 2);
  return `${start > 0 ? '…' : ''}${text.slice(start, shownEnd)}${shownEnd < text.length ? '…' : ''}`;
}
