import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { cleanupRepos, makeRepo } from './gitFixture';

afterEach(cleanupRepos);

// A merge reads every changed file's base at once; the files a checkout converts are still read
// as checked out, so each side compares with its base byte for byte.

describe('a merge of many files reads each base as git checks it out', () => {
  it('under core.autocrlf=true, CRLF in both folders merges line by line and stays CRLF', async () => {
    const repo = makeRepo({ commits: false });
    repo.git('config', 'core.autocrlf', 'true');
    repo.write('notes.txt', 'one\r\ntwo\r\nthree\r\nfour\r\n');
    repo.commitAll('crlf by autocrlf');
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    expect(readFileSync(path.join(wt.path, 'notes.txt'), 'utf8')).toBe('one\r\ntwo\r\nthree\r\nfour\r\n');
    writeFileSync(path.join(wt.path, 'notes.txt'), 'one\r\ntwo\r\nthree\r\nFOUR\r\n');
    repo.write('notes.txt', 'ONE\r\ntwo\r\nthree\r\nfour\r\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'merged', files: ['notes.txt'] });
    expect(repo.read('notes.txt')).toBe('ONE\r\ntwo\r\nthree\r\nFOUR\r\n');
    await worktrees.remove(wt);
  });

  it('thirty files edited on both sides, new and deleted ones among them, merge in one go', async () => {
    const repo = makeRepo();
    const names = Array.from({ length: 30 }, (_, i) => `src/part ${i}.txt`);
    for (const name of names) repo.write(name, 'head\nmiddle\ntail\n');
    repo.write('gone.txt', 'to delete\n');
    repo.commitAll('thirty');
    const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
    const wt = await worktrees.create('helper-1');
    for (const name of names) writeFileSync(path.join(wt.path, name), 'head\nmiddle\nTAIL by the helper\n');
    writeFileSync(path.join(wt.path, 'added.txt'), 'new\n');
    rmSync(path.join(wt.path, 'gone.txt'));
    for (const name of names) repo.write(name, 'HEAD by the person\nmiddle\ntail\n');

    expect(await worktrees.changedFiles(wt)).toEqual(['added.txt', 'gone.txt', ...names].sort());
    const outcome = await worktrees.merge(wt);
    expect(outcome.kind).toBe('merged');
    for (const name of names) expect(repo.read(name)).toBe('HEAD by the person\nmiddle\nTAIL by the helper\n');
    expect(repo.read('added.txt')).toBe('new\n');
    expect(repo.exists('gone.txt')).toBe(false);
    await worktrees.remove(wt);
  });
});
