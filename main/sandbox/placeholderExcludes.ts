import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gitTopOf } from './worktreeGitPaths';

const run = promisify(execFile);

/**
 * While a command runs, the sandbox binds each protected name that does not exist (placeholders.ts)
 * from /dev/null: git in the workspace sees `.bashrc`, `.mcp.json`, … as untracked files it cannot
 * add, and `git add -A` fails on them. The command's git is given, through the environment, an
 * excludes file (`excludesFile`, in the command's temp folder) holding the person's own excludes
 * and those placeholders, anchored at the workspace. Nothing of the person's repository or
 * settings is written. Empty when the workspace is in no repository.
 */
export async function placeholderExcludes(
  workspace: string,
  candidates: readonly string[],
  excludesFile: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const top = gitTopOf(workspace);
  if (top === null || candidates.length === 0) return {};
  const own = await personalExcludes(workspace, env);
  const anchored = candidates.map((file) => `/${escapeGlob(path.relative(top, file).split(path.sep).join('/'))}`);
  await writeFile(excludesFile, `${own}\n# Keel: the sandbox's placeholders while this command runs\n${anchored.join('\n')}\n`, { mode: 0o600 });
  // Added after whatever the environment already passes to git this way.
  const count = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  return { GIT_CONFIG_COUNT: String(count + 1), [`GIT_CONFIG_KEY_${count}`]: 'core.excludesFile', [`GIT_CONFIG_VALUE_${count}`]: excludesFile };
}

/** The excludes file git would read now (set, or its default), as text; empty when there is none. */
async function personalExcludes(workspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  let file: string;
  try {
    file = (await run('git', ['config', '--path', '--get', 'core.excludesFile'], { cwd: workspace, encoding: 'utf8' })).stdout.trim();
  } catch {
    file = '';
  }
  if (file === '') file = path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'git', 'ignore');
  return readFile(path.resolve(workspace, file), 'utf8').catch(() => '');
}

function escapeGlob(pattern: string): string {
  return pattern.replace(/[\\*?[\]!#]/g, (c) => `\\${c}`);
}
