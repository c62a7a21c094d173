import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees, isGitWorkspace } from '../../../main/helpers/git';
import { cleanupRepos, makeRepo, personState } from './gitFixture';

afterEach(cleanupRepos);

const readIn = (folder: string, relative: string) => readFileSync(path.join(folder, relative), 'utf8');

describe("a helper's worktree", () => {
  it('holds the folder as it is now, uncommitted edits, untracked and deleted files included, ignored files left out', async () => {
    const repo = makeRepo();
    repo.write('src/app.ts', 'export const one = 1; // edited, not committed\n');
    repo.write('notes/new file é.md', 'untracked, with a space and an é\n');
    repo.write('assets/logo.bin', Buffer.from([0, 1, 2, 255, 0, 42]));
    repo.write('run.sh', '#!/bin/sh\necho hi\n', { executable: true });
    repo.remove('README.md');
    repo.write('build/out.js', 'ignored\n');
    repo.write('debug.log', 'ignored\n');
    const before = personState(repo);

    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');

    expect(readIn(wt.path, 'src/app.ts')).toBe('export const one = 1; // edited, not committed\n');
    expect(readIn(wt.path, 'notes/new file é.md')).toBe('untracked, with a space and an é\n');
    expect(readFileSync(path.join(wt.path, 'assets/logo.bin'))).toEqual(Buffer.from([0, 1, 2, 255, 0, 42]));
    expect(statSync(path.join(wt.path, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(existsSync(path.join(wt.path, 'README.md'))).toBe(false);
    expect(existsSync(path.join(wt.path, 'build/out.js'))).toBe(false);
    expect(existsSync(path.join(wt.path, 'debug.log'))).toBe(false);
    // Nothing the helper has not touched counts as its change.
    expect(await worktrees.changedFiles(wt)).toEqual([]);
    // The person's HEAD, branches, stash, index and status are as they were.
    expect(personState(repo)).toEqual(before);
    // Outside the workspace, and not in the person's status.
    expect(wt.path.startsWith(repo.repo + path.sep)).toBe(false);
    expect(wt.path.startsWith(path.join(repo.dataDir, 'worktrees'))).toBe(true);
    await worktrees.remove(wt);
  });

  it('sees none of the folder’s later changes, and two helpers do not see each other’s edits', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const [a, b] = await Promise.all([worktrees.create('helper-1'), worktrees.create('helper-2')]);
    repo.write('src/app.ts', 'the person typed this later\n');
    repo.write('later.txt', 'made later\n');
    writeFileSync(path.join(a.path, 'README.md'), '# Edited by A\n');
    writeFileSync(path.join(a.path, 'from-a.txt'), 'A\n');

    expect(readIn(a.path, 'src/app.ts')).toContain('export const one = 1;');
    expect(existsSync(path.join(a.path, 'later.txt'))).toBe(false);
    expect(readIn(b.path, 'README.md')).toBe('# Project\n');
    expect(existsSync(path.join(b.path, 'from-a.txt'))).toBe(false);
    expect(repo.read('README.md')).toBe('# Project\n');
    expect(await worktrees.changedFiles(a)).toEqual(['README.md', 'from-a.txt']);
    expect(await worktrees.changedFiles(b)).toEqual([]);
    await worktrees.remove(a);
    await worktrees.remove(b);
  });

  it('works in a repository with no commits yet', async () => {
    const repo = makeRepo({ commits: false });
    repo.write('first.txt', 'not even committed\n');
    expect(await isGitWorkspace(repo.repo)).toBe(true);
    const before = personState(repo);
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(readIn(wt.path, 'first.txt')).toBe('not even committed\n');
    writeFileSync(path.join(wt.path, 'second.txt'), 'by the helper\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['second.txt'] });
    await worktrees.remove(wt);
    expect(repo.read('second.txt')).toBe('by the helper\n');
    expect(personState(repo)).toEqual({ ...before, status: personState(repo).status });
    expect(repo.git('status', '--porcelain')).toBe('?? first.txt\n?? second.txt\n');
  });

  it('in a workspace below the top of its repository, uses paths relative to the workspace', async () => {
    const repo = makeRepo();
    repo.write('packages/web/index.ts', 'export {};\n');
    repo.write('packages/web/draft.ts', 'untracked\n');
    repo.write('packages/api/server.ts', 'outside the workspace\n');
    repo.commitAll('packages');
    repo.write('packages/web/draft.ts', 'untracked, edited\n');
    const workspace = path.join(repo.repo, 'packages', 'web');
    const worktrees = new HelperWorktrees({ workspace, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');

    expect(readIn(wt.path, 'draft.ts')).toBe('untracked, edited\n');
    expect(path.relative(wt.root, wt.path)).toBe(path.join('packages', 'web'));
    mkdirSync(path.join(wt.path, 'lib'));
    writeFileSync(path.join(wt.path, 'lib', 'util.ts'), 'export const util = 1;\n');
    writeFileSync(path.join(wt.path, 'index.ts'), 'export * from "./lib/util";\n');
    expect(await worktrees.changedFiles(wt)).toEqual(['index.ts', 'lib/util.ts']);
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['index.ts', 'lib/util.ts'] });
    expect(readFileSync(path.join(workspace, 'lib', 'util.ts'), 'utf8')).toBe('export const util = 1;\n');
    await worktrees.remove(wt);
  });
});

describe('isGitWorkspace', () => {
  it('is false outside git and for a folder its repository ignores', async () => {
    const repo = makeRepo();
    expect(await isGitWorkspace(repo.dataDir.replace(/data$/, ''))).toBe(false);
    repo.write('build/cache/x.txt', 'ignored\n');
    expect(await isGitWorkspace(path.join(repo.repo, 'build', 'cache'))).toBe(false);
    expect(await isGitWorkspace(path.join(repo.repo, 'src'))).toBe(true);
    expect(await isGitWorkspace(path.join(repo.repo, 'no-such-folder'))).toBe(false);
  });
});
