import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { cleanupRepos, makeRepo, personState } from './gitFixture';

afterEach(cleanupRepos);

/** Every lock file git left in the repository's .git folder (index.lock, a ref's .lock, packed-refs.lock). */
function lockFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const absolute = path.join(dir, entry.name);
    if (entry.isDirectory()) return lockFiles(absolute);
    return entry.name.endsWith('.lock') ? [absolute] : [];
  });
}

describe('the worktrees of helpers of one answer, made at the same time', () => {
  it('four at once: each made, merged and removed, no lock or ref left, the person’s git untouched', async () => {
    const repo = makeRepo();
    repo.write('src/app.ts', 'export const one = 1; // edited, not committed\n');
    repo.write('untracked.txt', 'not added\n');
    const before = personState(repo);
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const ids = ['helper-1', 'helper-2', 'helper-3', 'helper-4'];

    // Twice: a second burst meets what the first left (git's worktree records, the ref folder).
    for (const round of [1, 2]) {
      const made = await Promise.all(ids.map((id) => worktrees.create(id)));
      expect(new Set(made.map((wt) => wt.path)).size).toBe(4);
      for (const wt of made) {
        expect(readFileSync(path.join(wt.path, 'src/app.ts'), 'utf8')).toBe('export const one = 1; // edited, not committed\n');
        expect(readFileSync(path.join(wt.path, 'untracked.txt'), 'utf8')).toBe('not added\n');
      }
      expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(5);
      expect(repo.git('for-each-ref', '--format=%(refname)', 'refs/keel').trim().split('\n')).toHaveLength(4);
      expect(lockFiles(path.join(repo.repo, '.git'))).toEqual([]);

      made.forEach((wt, i) => writeFileSync(path.join(wt.path, `from-${i + 1}.txt`), `round ${round}\n`));
      const outcomes = await Promise.all(made.map((wt) => worktrees.merge(wt)));
      expect(outcomes.map((o) => o.kind)).toEqual(['merged', 'merged', 'merged', 'merged']);
      await Promise.all(made.map((wt, i) => worktrees.remove(wt, { background: i % 2 === 0 })));

      for (const i of [1, 2, 3, 4]) expect(repo.read(`from-${i}.txt`)).toBe(`round ${round}\n`);
      expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(repo.git('for-each-ref', 'refs/keel').trim()).toBe('');
      expect(lockFiles(path.join(repo.repo, '.git'))).toEqual([]);
    }
    await worktrees.dispose();
    // Only the merged files are new to the person; HEAD, branches, stash and index are theirs.
    const after = personState(repo);
    expect({ ...after, status: '' }).toEqual({ ...before, status: '' });
  });
});
