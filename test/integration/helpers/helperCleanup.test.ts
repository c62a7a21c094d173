import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees, type HelperWorktree } from '../../../main/helpers/git';
import { cleanupRepos, makeRepo, type GitFixture } from './gitFixture';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  cleanupRepos();
});

/** Every file Keel keeps for helpers in its data folder. */
function helperFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'worktrees');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' });
}

function traces(repo: GitFixture) {
  return {
    worktrees: repo
      .git('worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree ')).length,
    refs: repo.git('for-each-ref', 'refs/keel'),
  };
}

/** A Keel in a process of its own that made a helper worktree and still runs. */
async function otherKeel(repo: GitFixture, keptFor?: string): Promise<{ child: ChildProcess; wt: HelperWorktree }> {
  const script = fileURLToPath(new URL('./crashingKeel.ts', import.meta.url));
  const args = ['--import', 'tsx', script, repo.repo, repo.dataDir, ...(keptFor ? [keptFor] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`the other Keel ended (${code}) before making its worktree`)));
  });
  return { child, wt: JSON.parse(line) as HelperWorktree };
}

describe("a helper's worktree leaves nothing behind", () => {
  it('remove() takes the worktree, its git entry, its ref and every temporary file', async () => {
    const repo = makeRepo();
    repo.write('src/app.ts', 'the person’s own edit\n');
    const statusBefore = repo.git('status', '--porcelain');
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(traces(repo).worktrees).toBe(2);
    expect(traces(repo).refs).toContain(wt.base);
    writeFileSync(path.join(wt.path, 'made-by-helper.txt'), 'x\n');
    await worktrees.merge(wt);

    await worktrees.remove(wt);

    expect(existsSync(wt.root)).toBe(false);
    expect(traces(repo)).toEqual({ worktrees: 1, refs: '' });
    // Only the (empty) folder of this workspace's worktrees is left in the data folder.
    expect(helperFiles(repo.dataDir)).toHaveLength(1);
    expect(repo.git('status', '--porcelain')).toBe(`${statusBefore}?? made-by-helper.txt\n`);
  });

  it('remove() in the background: git forgets the worktree at once, and its files are gone by dispose()', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    writeFileSync(path.join(wt.path, 'scratch.txt'), 'x\n');
    await worktrees.remove(wt, { background: true });
    expect(existsSync(wt.root)).toBe(false);
    expect(traces(repo)).toEqual({ worktrees: 1, refs: '' });
    await worktrees.dispose();
    expect(helperFiles(repo.dataDir)).toHaveLength(1);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('a second helper of the same id (a new session) gets a worktree of its own', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const kept = await worktrees.create('helper-1');
    const next = await worktrees.create('helper-1');
    expect(next.root).not.toBe(kept.root);
    await worktrees.remove(kept);
    expect(existsSync(next.root)).toBe(true);
    await worktrees.remove(next);
    expect(traces(repo)).toEqual({ worktrees: 1, refs: '' });
  });

  it('sweep() removes the worktrees of a Keel that crashed, and leaves those of live ones', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const mine = await worktrees.create('helper-7');
    const other = await otherKeel(repo);
    expect(traces(repo).worktrees).toBe(3);

    // While the other Keel runs, nothing is swept.
    expect(await worktrees.sweep()).toBe(0);
    expect(existsSync(other.wt.root)).toBe(true);

    other.child.kill('SIGKILL');
    await new Promise((resolve) => other.child.once('exit', resolve));
    expect(await worktrees.sweep()).toBe(1);

    expect(existsSync(other.wt.root)).toBe(false);
    expect(existsSync(mine.root)).toBe(true);
    const after = traces(repo);
    expect(after.worktrees).toBe(2);
    expect(after.refs).toContain(mine.base);
    expect(after.refs.trim().split('\n')).toHaveLength(1);
    await worktrees.remove(mine);
    expect(traces(repo)).toEqual({ worktrees: 1, refs: '' });
  });

  it('sweep() leaves a worktree kept for the person after its Keel ended, until its session is gone', async () => {
    const repo = makeRepo();
    const abandoned = await otherKeel(repo);
    const kept = await otherKeel(repo, 'session-1');
    writeFileSync(path.join(kept.wt.path, 'helper-work.txt'), 'kept for the person\n');
    for (const other of [abandoned, kept]) {
      other.child.kill('SIGKILL');
      await new Promise((resolve) => other.child.once('exit', resolve));
    }
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });

    // Keel starts again: the crash's worktree goes, the kept one stays with its ref and its work.
    expect(await worktrees.sweep({ sessionGone: () => false })).toBe(1);
    expect(existsSync(abandoned.wt.root)).toBe(false);
    expect(existsSync(path.join(kept.wt.path, 'helper-work.txt'))).toBe(true);
    expect(traces(repo).worktrees).toBe(2);
    expect(traces(repo).refs.trim().split('\n')).toHaveLength(1);
    expect(await worktrees.kept('session-1')).toEqual([kept.wt]);
    expect(await worktrees.kept('session-2')).toEqual([]);
    expect(await worktrees.changedFiles(kept.wt)).toEqual(['helper-work.txt']);
    // And again at the next start, without asking about sessions at all.
    expect(await worktrees.sweep()).toBe(0);

    // Its session deleted, it is abandoned too.
    expect(await worktrees.sweep({ sessionGone: (id) => id === 'session-1' })).toBe(1);
    expect(existsSync(kept.wt.root)).toBe(false);
    expect(traces(repo)).toEqual({ worktrees: 1, refs: '' });
    expect(helperFiles(repo.dataDir)).toHaveLength(1);
  });

  it('a data folder inside the repository still puts the worktree outside it', async () => {
    const repo = makeRepo();
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: path.join(repo.repo, '.keel-data') });
    const wt = await worktrees.create('helper-1');
    expect(wt.root.startsWith(repo.repo + path.sep)).toBe(false);
    expect(repo.git('status', '--porcelain')).toBe('');
    await worktrees.remove(wt);
    expect(existsSync(wt.root)).toBe(false);
  });
});
