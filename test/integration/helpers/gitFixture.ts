import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A real git repository in a temporary folder, with a separate Keel data folder. */
export interface GitFixture {
  /** The repository's top. */
  repo: string;
  dataDir: string;
  git(...args: string[]): string;
  write(relative: string, content: string | Buffer, options?: { executable?: boolean }): void;
  read(relative: string): string;
  exists(relative: string): boolean;
  remove(relative: string): void;
  commitAll(message?: string): void;
  cleanup(): void;
}

const made: string[] = [];

export function makeRepo(options: { commits?: boolean } = {}): GitFixture {
  const top = mkdtempSync(path.join(tmpdir(), 'keel-helpers-git-'));
  made.push(top);
  const repo = path.join(top, 'repo');
  const dataDir = path.join(top, 'data');
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd: repo, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  const fixture: GitFixture = {
    repo,
    dataDir,
    git,
    write(relative, content, writeOptions = {}) {
      const absolute = path.join(repo, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, content, { mode: writeOptions.executable ? 0o755 : 0o644 });
    },
    read: (relative) => readFileSync(path.join(repo, relative), 'utf8'),
    exists: (relative) => existsSync(path.join(repo, relative)),
    remove: (relative) => rmSync(path.join(repo, relative)),
    commitAll(message = 'commit') {
      git('add', '-A');
      git('commit', '-q', '-m', message);
    },
    cleanup: () => rmSync(top, { recursive: true, force: true }),
  };
  if (options.commits !== false) {
    fixture.write('README.md', '# Project\n');
    fixture.write('src/app.ts', 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n');
    fixture.write('.gitignore', 'build/\n*.log\n');
    fixture.commitAll('first');
  }
  return fixture;
}

export function cleanupRepos(): void {
  for (const top of made.splice(0)) rmSync(top, { recursive: true, force: true });
}

/**
 * Every file and link under a folder (the `.git` folder left out unless asked) with its bytes'
 * hash and mode: two fingerprints equal means the folder is byte for byte the same.
 */
export function fingerprint(folder: string, options: { withGit?: boolean } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === '.git' && !options.withGit) continue;
      const absolute = path.join(dir, name);
      const relative = path.relative(folder, absolute);
      const stat = lstatSync(absolute);
      if (stat.isDirectory()) {
        out[`${relative}/`] = 'dir';
        walk(absolute);
      } else if (stat.isSymbolicLink()) out[relative] = `link ${readlinkSync(absolute)}`;
      else out[relative] = `${(stat.mode & 0o777).toString(8)} ${createHash('sha256').update(readFileSync(absolute)).digest('hex')}`;
    }
  };
  walk(folder);
  return out;
}

/** What the person's git says of their repository: HEAD, branches, stash, index bytes, status. */
export function personState(fixture: GitFixture): Record<string, string> {
  const quiet = (...args: string[]) => {
    try {
      return fixture.git(...args);
    } catch {
      return '(none)';
    }
  };
  const index = path.join(fixture.repo, '.git', 'index');
  return {
    head: quiet('rev-parse', '--verify', '-q', 'HEAD'),
    symbolic: quiet('symbolic-ref', 'HEAD'),
    branches: quiet('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags', 'refs/stash'),
    stash: quiet('stash', 'list'),
    index: existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : '(no index)',
    status: quiet('--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all'),
  };
}
