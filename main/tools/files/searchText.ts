import { realpath, stat } from 'node:fs/promises';
import { z } from 'zod';
import { searchFiles, type FoundMatch } from '../search/engine';
import { compileSearchRegex } from '../search/regex';
import type { Tool, ToolContext, ToolResult } from '../types';
import { resolveInWorkspace } from './confine';
import { describeFsError, failure, success } from './errors';
import { globMatcher } from './glob';
import { secretsWithin } from '../../sandbox/secretPaths';

export const SEARCH_DEFAULT_RESULTS = 200;
export const SEARCH_MAX_RESULTS = 2000;
/** A search (of a huge tree, or a look-ahead regex that backtracks without end) gives up after this long and says so. */
export const SEARCH_DEADLINE_MS = 30_000;

const inputSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression to find, matched against each line (for example "function\\s+load" or "TODO|FIXME").'),
  path: z.string().optional().describe('Folder (or single file) to search, relative to the workspace (default: the whole workspace).'),
  glob: z
    .string()
    .optional()
    .describe('Only search files whose path matches this glob, relative to `path`; without a slash it matches file names at any depth: "*.ts".'),
  ignore_case: z.boolean().optional().describe('Match regardless of letter case (default false).'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_RESULTS)
    .optional()
    .describe(`Maximum number of matching lines to return (default ${SEARCH_DEFAULT_RESULTS}).`),
});

type SearchInput = z.output<typeof inputSchema>;

export const searchTextTool: Tool<typeof inputSchema> = {
  name: 'search_text',
  kind: 'read',
  description: [
    'Search the text files of the workspace for lines matching a regular expression (JavaScript syntax).',
    'Returns one line per match: `path:line: text`, path relative to the workspace, in path order; long lines are shortened around the match.',
    'Files ignored by .gitignore, .git, node_modules and binary files are skipped; files in legacy encodings (GBK, Shift_JIS, …) are decoded first.',
    `Returns at most max_results (default ${SEARCH_DEFAULT_RESULTS}) matches, with a note when there were more. Use read_file with an offset to see a match in context.`,
    'Patterns run on a linear-time engine, so nested repetition such as (a+)+ is safe; look-ahead and back-references need a backtracking engine.',
    `A search that takes longer than ${SEARCH_DEADLINE_MS / 1000} s (a huge tree, or a look-ahead or back-reference with nested repetition) stops and returns what it found, saying so.`,
  ].join(' '),
  inputSchema,
  run: (input, context) => searchText(input, context),
};

/**
 * search_text itself. The files are read and matched in worker threads (see ../search/engine), so
 * however large the tree or slow the regex, the main thread stays free and Stop answers at once.
 */
export async function searchText(input: SearchInput, context: ToolContext, options: { deadlineMs?: number } = {}): Promise<ToolResult> {
  const regex = compileSearchRegex(input.pattern, input.ignore_case ?? false);
  if ('error' in regex) return failure(regex.error);
  if (input.glob !== undefined) {
    const matcher = globMatcher(input.glob);
    if ('error' in matcher) return failure(matcher.error);
  }
  const resolved = await resolveInWorkspace(context.workspace, input.path?.trim() || '.', { secrets: context.secrets });
  if (!resolved.ok) return failure(resolved.message);
  const shown = resolved.relative;
  const maxResults = input.max_results ?? SEARCH_DEFAULT_RESULTS;
  const deadlineMs = options.deadlineMs ?? SEARCH_DEADLINE_MS;
  const format = (match: FoundMatch) => `${match.relative || shown}:${match.line}: ${match.text}`;

  let outcome;
  try {
    const info = await stat(resolved.absolute);
    if (!info.isFile() && !info.isDirectory()) return failure(`"${shown}" is not a regular file or folder, so it cannot be searched.`);
    const root = await realpath(context.workspace);
    outcome = await searchFiles(
      {
        root,
        hidden: secretsWithin(root, context.secrets ?? []),
        start: resolved.absolute,
        single: info.isFile(),
        pattern: input.pattern,
        ignoreCase: input.ignore_case ?? false,
        ...(input.glob !== undefined && !info.isFile() ? { glob: input.glob } : {}),
        maxResults,
      },
      { signal: context.signal, deadlineMs, onMatch: (match) => context.onOutput?.(`${format(match)}\n`) },
    );
  } catch (error) {
    return failure(describeFsError(error, shown, 'searching', context.signal));
  }

  const results = outcome.matches.map(format);
  const notes: string[] = [];
  const { more, unreadable } = outcome;
  const tooLarge = outcome.tooLarge.map((relative) => relative || shown);
  if (more) notes.push(`(Stopped at ${maxResults} matches; there are more. Narrow the pattern, path or glob, or raise max_results.)`);
  if (tooLarge.length > 0)
    notes.push(`(Not searched, UTF-16 files too large to decode whole: ${tooLarge.slice(0, 10).join(', ')}${tooLarge.length > 10 ? ', …' : ''}.)`);
  if (unreadable.length > 0) notes.push(`(Could not read: ${unreadable.slice(0, 10).join(', ')}${unreadable.length > 10 ? ', …' : ''}.)`);
  const found = results.length === 0 ? 'No matches were found before that.' : `The ${results.length} matching lines above were found before that.`;
  if (outcome.stopped === 'aborted') {
    return failure([...results, `Stopped: the task was cancelled while searching "${shown}". ${found}`, ...notes].join('\n'));
  }
  if (outcome.stopped === 'deadline') {
    notes.push(
      `(Stopped: the search hit its ${formatSeconds(deadlineMs)} deadline, so it is incomplete. ${found} ` +
        'A pattern with look-ahead or back-references and nested repetition can take forever on some lines: simplify it, or narrow the path or glob.)',
    );
  }
  if (results.length === 0) {
    const where = shown === '.' ? 'the workspace' : `"${shown}"`;
    const filter = input.glob !== undefined ? ` (files matching "${input.glob}")` : '';
    return success([`No matches for /${input.pattern}/ in ${where}${filter}.`, ...notes].join('\n'));
  }
  return success([...results, ...notes].join('\n'));
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
