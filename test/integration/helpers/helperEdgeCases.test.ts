import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { cleanupRepos, fingerprint, makeRepo } from './gitFixture';

afterEach(cleanupRepos);

const APP = 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n';

describe('helper worktrees in the corners of git', () => {
  it("runs none of the person's hooks, and signs nothing even when the repository asks for signed commits", async () => {
    const repo = makeRepo();
    const hook = path.join(repo.repo, '.git', 'hooks', 'post-checkout');
    writeFileSync(hook, `#!/bin/sh\necho ran > "${path.join(repo.repo, 'hook-ran.txt')}"\n`);
    chmodSync(hook, 0o755);
    repo.git('config', 'commit.gpgSign', 'true');
    repo.git('config', 'gpg.program', 'false');
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(existsSync(path.join(repo.repo, 'hook-ran.txt'))).toBe(false);
    expect(existsSync(path.join(wt.path, 'hook-ran.txt'))).toBe(false);
    await worktrees.remove(wt);
  });

  it('a helper that commits in its worktree still has its changes merged', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    writeFileSync(path.join(wt.path, 'src/app.ts'), APP.replace('two = 2', 'two = 22'));
    writeFileSync(path.join(wt.path, 'committed.txt'), 'committed by the helper\n');
    const helperGit = { cwd: wt.path, encoding: 'utf8' as const };
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['add', '-A'], helperGit);
    execFileSync('git', ['-c', 'user.name=Helper', '-c', 'user.email=h@example.com', 'commit', '-q', '-m', 'helper'], helperGit);
    writeFileSync(path.join(wt.path, 'after-commit.txt'), 'not committed\n');

    expect(await worktrees.changedFiles(wt)).toEqual(['after-commit.txt', 'committed.txt', 'src/app.ts']);
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['after-commit.txt', 'committed.txt', 'src/app.ts'] });
    expect(repo.read('src/app.ts')).toBe(APP.replace('two = 2', 'two = 22'));
    await worktrees.remove(wt);
    expect(repo.git('log', '--oneline', '--all').trim().split('\n')).toHaveLength(1);
  });

  it('a new executable file and a new symbolic link come into the folder as they are', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    mkdirSync(path.join(wt.path, 'bin'));
    writeFileSync(path.join(wt.path, 'bin', 'run'), '#!/bin/sh\necho run\n', { mode: 0o755 });
    symlinkSync('../src/app.ts', path.join(wt.path, 'bin', 'app-link'));
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['bin/app-link', 'bin/run'] });
    expect(statSync(path.join(repo.repo, 'bin', 'run')).mode & 0o100).toBe(0o100);
    expect(lstatSync(path.join(repo.repo, 'bin', 'app-link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(repo.repo, 'bin', 'app-link'))).toBe('../src/app.ts');
    await worktrees.remove(wt);
  });

  it('a file where the folder now has a file in the way of its folder is a conflict, and nothing is written', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    mkdirSync(path.join(wt.path, 'docs'));
    writeFileSync(path.join(wt.path, 'docs', 'guide.md'), '# Guide\n');
    writeFileSync(path.join(wt.path, 'README.md'), '# Changed cleanly\n');
    repo.write('docs', 'the person made docs a file\n');
    const before = fingerprint(repo.repo);
    expect(await worktrees.merge(wt, 'theirs')).toEqual({ kind: 'conflict', files: ['docs/guide.md'] });
    expect(fingerprint(repo.repo)).toEqual(before);
    await worktrees.remove(wt);
  });

  it('keeps the line endings git checks out (CRLF by .gitattributes) while merging both sides’ edits', async () => {
    const repo = makeRepo({ commits: false });
    repo.write('.gitattributes', 'pkg/*.txt text eol=crlf\n');
    repo.write('pkg/lines.txt', 'one\r\ntwo\r\nthree\r\nfour\r\n');
    repo.commitAll('crlf');
    const workspace = path.join(repo.repo, 'pkg');
    const worktrees = new HelperWorktrees({ workspace, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(readFileSync(path.join(wt.path, 'lines.txt'), 'utf8')).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');
    writeFileSync(path.join(wt.path, 'lines.txt'), 'one\r\ntwo\r\nthree\r\nFOUR\r\n');
    writeFileSync(path.join(workspace, 'lines.txt'), 'ONE\r\ntwo\r\nthree\r\nfour\r\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['lines.txt'] });
    expect(readFileSync(path.join(workspace, 'lines.txt'), 'utf8')).toBe('ONE\r\ntwo\r\nthree\r\nFOUR\r\n');
    await worktrees.remove(wt);
  });

  it('refuses a helper id that is not a plain name', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    await expect(worktrees.create('../escape')).rejects.toMatchObject({ code: 'bad_helper_id' });
  });
});

describe('a worktree that is gone', () => {
  it('merging it says so with a code, and removing it still cleans up after it', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    rmSync(wt.root, { recursive: true, force: true });
    await expect(worktrees.merge(wt)).rejects.toMatchObject({ code: 'worktree_missing' });
    await worktrees.remove(wt);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
    expect(repo.git('for-each-ref', 'refs/keel')).toBe('');
  });
});

describe('a workspace that is itself a linked worktree of the person', () => {
  it('snapshots that worktree (its own index and HEAD) and merges back into it', async () => {
    const repo = makeRepo();
    const linked = path.join(path.dirname(repo.repo), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'feature', linked);
    writeFileSync(path.join(linked, 'feature.txt'), 'only in the linked worktree\n');
    const worktrees = new HelperWorktrees({ workspace: linked, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(readFileSync(path.join(wt.path, 'feature.txt'), 'utf8')).toBe('only in the linked worktree\n');
    writeFileSync(path.join(wt.path, 'données été.txt'), 'non-ASCII name\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['données été.txt'] });
    expect(readFileSync(path.join(linked, 'données été.txt'), 'utf8')).toBe('non-ASCII name\n');
    expect(existsSync(path.join(repo.repo, 'données été.txt'))).toBe(false);
    await worktrees.remove(wt);
    expect(repo.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(2);
    expect(repo.git('-C', linked, 'status', '--porcelain', '-uall')).toBe('?? "donn\\303\\251es \\303\\251t\\303\\251.txt"\n?? feature.txt\n');
  });
});
