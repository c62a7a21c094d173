import { realpath, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../types';
import { resolveInWorkspace } from './confine';
import { describeFsError, failure, success } from './errors';
import { globMatcher } from './glob';
import { isOddName, isSystemFile, showName } from '../../platform/listingNames';
import { secretsWithin } from '../../sandbox/secretPaths';
import { listPaths } from '../search/engine';

/** Enough to see a project's shape; more only fills the model's context with names. */
export const LIST_MAX_ENTRIES = 1000;
/** A listing of an enormous tree gives up after this long and says so. */
const LIST_DEADLINE_MS = 30_000;

const inputSchema = z.object({
  pattern: z
    .string()
    .optional()
    .describe('Glob for the files to list, relative to `path` (default "**/*", everything). Without a slash it matches file names at any depth: "*.ts".'),
  path: z.string().optional().describe('Folder to list, relative to the workspace (default: the workspace itself).'),
});

export const listFilesTool: Tool<typeof inputSchema> = {
  name: 'list_files',
  kind: 'read',
  description: [
    'List the files in the workspace (or a folder of it) whose path matches a glob, such as "**/*.ts", "*.md" or "src/**/test_*.py".',
    'Paths are returned one per line, relative to the workspace (ready for read_file), sorted.',
    'Files ignored by .gitignore (at the root or in subfolders) and everything in .git and node_modules are left out.',
    `At most ${LIST_MAX_ENTRIES} paths are returned; a note says when the list was cut (then narrow the pattern or the path).`,
  ].join(' '),
  inputSchema,
  async run(input, context) {
    // An empty path is the model's way of saying "the workspace", as is omitting it.
    const folder = input.path?.trim() || '.';
    const resolved = await resolveInWorkspace(context.workspace, folder, { secrets: context.secrets });
    if (!resolved.ok) return failure(resolved.message);
    const shown = resolved.relative;
    const pattern = input.pattern ?? '**/*';
    const matches = globMatcher(pattern);
    if ('error' in matches) return failure(matches.error);
    try {
      const info = await stat(resolved.absolute);
      if (!info.isDirectory()) {
        return failure(`"${shown}" is a file, not a folder. Use read_file to read it, or give its folder as path.`);
      }
      // Walked in a worker thread (../search/engine): a huge tree never holds up the main thread.
      const root = await realpath(context.workspace);
      const listed = await listPaths(
        { root, start: resolved.absolute, glob: pattern, hidden: secretsWithin(root, context.secrets ?? []), maxPaths: LIST_MAX_ENTRIES },
        { signal: context.signal, deadlineMs: LIST_DEADLINE_MS },
      );
      if (listed.stopped === 'aborted') return failure(`Stopped: the task was cancelled while listing "${shown}".`);
      const { cut, startIgnored } = listed;
      const found = listed.paths.filter((path) => !isSystemFile(path));
      const where = shown === '.' ? 'the workspace' : `"${shown}"`;
      const notes: string[] = [];
      if (listed.stopped === 'deadline')
        notes.push(`(Stopped: listing hit its ${LIST_DEADLINE_MS / 1000} s deadline, so the list is incomplete. Narrow the path.)`);
      if (startIgnored) notes.push(`(Note: ${where} is ignored by .gitignore; listed because it was asked for.)`);
      if (found.length === 0) return success([`No files match "${pattern}" in ${where} (ignored files are left out).`, ...notes].join('\n'));
      if (found.some(isOddName)) {
        notes.push('(Names in double quotes have control characters or edge spaces and are shown JSON-quoted; pass the unquoted string as the path.)');
      }
      if (cut) notes.push(`(Showing the first ${LIST_MAX_ENTRIES} files; there are more. Narrow the pattern or the path to see the rest.)`);
      return success([...found.map(showName), ...notes].join('\n'));
    } catch (error) {
      return failure(describeFsError(error, shown, 'listing', context.signal));
    }
  },
};
