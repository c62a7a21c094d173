import { execFileSync } from 'node:child_process';

/** Git with an identity of its own for the commits a test makes: a fresh machine has none. */
export function gitIn(folder: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Keel test', '-c', 'user.email=test@keel.invalid', ...args], { cwd: folder, encoding: 'utf8' });
}

/** Makes `folder` a git repository (branch main) whose one commit holds what is in it now. */
export function commitFolder(folder: string, message = 'start'): void {
  gitIn(folder, 'init', '-q', '-b', 'main');
  gitIn(folder, 'add', '-A');
  gitIn(folder, 'commit', '-q', '-m', message);
}
