import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Why a helper's git plumbing failed, as a code the caller branches on (the message is for logs). */
export type HelperGitErrorCode = 'git_missing' | 'not_git' | 'git_failed' | 'bad_helper_id' | 'worktree_missing';

export class HelperGitError extends Error {
  constructor(
    readonly code: HelperGitErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HelperGitError';
  }
}

/*
 * Variables that would point git at another repository, index or object store than the one the
 * cwd names: Keel started from a git hook, or a terminal that exported them, must not redirect the
 * helper's plumbing into the person's index.
 */
const REDIRECTING = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
];

/** The environment every git call of the helpers runs with; `extra` (e.g. a temporary GIT_INDEX_FILE) on top. */
function gitEnvironment(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REDIRECTING) delete env[name];
  // Never a prompt (credentials, editor): nothing here talks to a person.
  env.GIT_TERMINAL_PROMPT = '0';
  // Reading the person's repository must not refresh (write) their index as a side effect.
  env.GIT_OPTIONAL_LOCKS = '0';
  return { ...env, ...extra };
}

/*
 * Settings for every call: no hooks (the person's post-checkout hook must not run for a helper's
 * worktree), no automatic gc in the middle of a snapshot, no split index written beside the
 * person's own, no file-system monitor daemon started for a worktree that lives minutes.
 */
const ALWAYS = [
  ...['-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-c', 'core.splitIndex=false'],
  ...['-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false'],
];

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  /** The exit code; only codes listed in `okCodes` come back here instead of throwing. */
  code: number;
}

export interface GitOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (merge-file's count of conflicts, check-ignore's 1). */
  okCodes?: readonly number[];
  input?: Buffer | string;
}

/** Runs `git <args>` (an argument array, never a shell line) and returns its output as bytes. */
export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...ALWAYS, ...args],
      { cwd: options.cwd, env: gitEnvironment(options.env), encoding: 'buffer', maxBuffer: 1 << 30, windowsHide: true },
      (error, stdout, stderr) => {
        const errText = stderr.toString('utf8');
        if (!error) return resolve({ stdout, stderr: errText, code: 0 });
        const code = (error as NodeJS.ErrnoException).code;
        // A missing cwd fails the spawn with the same ENOENT as a missing git.
        if (code === 'ENOENT' && !existsSync(options.cwd))
          return reject(new HelperGitError('git_failed', `git ${args[0] ?? ''}: ${options.cwd} does not exist`));
        if (code === 'ENOENT') return reject(new HelperGitError('git_missing', 'git is not installed or not on the PATH'));
        if (typeof code === 'number' && options.okCodes?.includes(code)) return resolve({ stdout, stderr: errText, code });
        reject(new HelperGitError('git_failed', `git ${args.join(' ')} failed (${String(code ?? error.message)}): ${errText.trim()}`));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** `git` whose output is one line of text (a sha, a path), trimmed. */
export async function gitLine(args: readonly string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout.toString('utf8').trim();
}
