import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A `git` first on the PATH that holds every `git worktree add` until the test opens the gate (or
 * makes it fail): the real git does everything else, and the checkout itself once let through.
 */
export interface GitGate {
  /** A `git worktree add` is waiting at the gate. */
  readonly waiting: boolean;
  open(): void;
  /** The held (and any later) `git worktree add` fails, as a full disk would make it. */
  fail(): void;
  /** Takes the gate off the PATH and deletes it. */
  dispose(): void;
}

export function installGitGate(): GitGate {
  const dir = mkdtempSync(path.join(tmpdir(), 'keel-git-gate-'));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const script = `#!/bin/sh
prev=
for arg in "$@"; do
  if [ "$prev" = worktree ] && [ "$arg" = add ]; then
    touch '${dir}/waiting'
    while [ -d '${dir}' ] && [ ! -e '${dir}/open' ] && [ ! -e '${dir}/fail' ]; do sleep 0.02; done
    if [ -e '${dir}/fail' ]; then echo 'fatal: the test gate failed this checkout' >&2; exit 128; fi
  fi
  prev=$arg
done
exec '${realGit}' "$@"
`;
  writeFileSync(path.join(dir, 'git'), script);
  chmodSync(path.join(dir, 'git'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${before ?? ''}`;
  return {
    get waiting() {
      return existsSync(path.join(dir, 'waiting'));
    },
    open: () => writeFileSync(path.join(dir, 'open'), ''),
    fail: () => writeFileSync(path.join(dir, 'fail'), ''),
    dispose() {
      // Whatever still waits is let through before the gate goes.
      writeFileSync(path.join(dir, 'open'), '');
      process.env.PATH = before;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
