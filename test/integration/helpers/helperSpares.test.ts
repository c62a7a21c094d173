import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { cleanupRepos, makeRepo, personState } from './gitFixture';

afterEach(cleanupRepos);

const worktreeCount = (git: (...args: string[]) => string) =>
  git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree ')).length;

describe('ready worktrees (spares)', () => {
  it('a helper started from a spare sees the folder as it is when it starts, not when the spare was made', async () => {
    const repo = makeRepo();
    repo.write('early.txt', 'in the folder when the spare was made\n');
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir, spares: 1 });
    await worktrees.prepare();
    expect(worktreeCount(repo.git)).toBe(2);
    // The person works on after the spare was made.
    repo.remove('early.txt');
    repo.write('src/app.ts', 'edited after the spare\n');
    repo.write('late.txt', 'made after the spare\n');
    const before = personState(repo);

    const wt = await worktrees.create('helper-1');

    expect(existsSync(path.join(wt.path, 'early.txt'))).toBe(false);
    expect(readFileSync(path.join(wt.path, 'src/app.ts'), 'utf8')).toBe('edited after the spare\n');
    expect(readFileSync(path.join(wt.path, 'late.txt'), 'utf8')).toBe('made after the spare\n');
    expect(await worktrees.changedFiles(wt)).toEqual([]);
    writeFileSync(path.join(wt.path, 'README.md'), '# By the helper\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['README.md'] });
    expect(personState(repo)).toEqual({ ...before, status: personState(repo).status });
    await worktrees.remove(wt);
    // A new spare replaced the one taken; dispose() removes it, and nothing is left.
    await worktrees.prepare();
    expect(worktreeCount(repo.git)).toBe(2);
    await worktrees.dispose();
    expect(worktreeCount(repo.git)).toBe(1);
    expect(repo.git('for-each-ref', 'refs/keel')).toBe('');
    expect(repo.git('status', '--porcelain')).toBe(' M README.md\n M src/app.ts\n?? late.txt\n');
  });

  it('two helpers at once with one spare each get their own worktree', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir, spares: 1 });
    await worktrees.prepare();
    const [a, b] = await Promise.all([worktrees.create('helper-1'), worktrees.create('helper-2')]);
    expect(a.root).not.toBe(b.root);
    writeFileSync(path.join(a.path, 'a.txt'), 'A\n');
    expect(existsSync(path.join(b.path, 'a.txt'))).toBe(false);
    await worktrees.remove(a);
    await worktrees.remove(b);
    await worktrees.dispose();
    expect(worktreeCount(repo.git)).toBe(1);
  });
});
