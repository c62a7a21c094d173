import { chmodSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { cleanupRepos, fingerprint, makeRepo, personState } from './gitFixture';

afterEach(cleanupRepos);

const APP = 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n';

function setup() {
  const repo = makeRepo();
  const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
  const edit = (folder: string, relative: string, content: string) => writeFileSync(path.join(folder, relative), content);
  return { repo, worktrees, edit };
}

describe("merging a helper's changes into the folder", () => {
  it('merges three-way with the folder’s own later edits: modified, new, deleted files and the executable bit', async () => {
    const { repo, worktrees, edit } = setup();
    repo.write('tool.sh', '#!/bin/sh\n');
    repo.commitAll('tool');
    const wt = await worktrees.create('helper-1');
    // The person edits line 1 meanwhile; the helper edits line 3, adds, deletes and chmods.
    repo.write('src/app.ts', APP.replace('one = 1', 'one = 100'));
    edit(wt.path, 'src/app.ts', APP.replace('three = 3', 'three = 300'));
    edit(wt.path, 'added.txt', 'new\n');
    rmSync(path.join(wt.path, 'README.md'));
    chmodSync(path.join(wt.path, 'tool.sh'), 0o755);

    const outcome = await worktrees.merge(wt);

    expect(outcome).toEqual({ kind: 'merged', files: ['README.md', 'added.txt', 'src/app.ts', 'tool.sh'] });
    expect(repo.read('src/app.ts')).toBe('export const one = 100;\nexport const two = 2;\nexport const three = 300;\n');
    expect(repo.read('added.txt')).toBe('new\n');
    expect(repo.exists('README.md')).toBe(false);
    expect(statSync(path.join(repo.repo, 'tool.sh')).mode & 0o111).not.toBe(0);
    await worktrees.remove(wt);
    // The person's status is their own edit plus the merged changes, nothing else.
    expect(repo.git('status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([' D README.md', ' M src/app.ts', ' M tool.sh', '?? added.txt']);
  });

  it('on a conflict writes nothing at all and names the conflicting files', async () => {
    const { repo, worktrees, edit } = setup();
    const wt = await worktrees.create('helper-1');
    repo.write('src/app.ts', APP.replace('two = 2', 'two = "the person\'s"'));
    edit(wt.path, 'src/app.ts', APP.replace('two = 2', 'two = "the helper\'s"'));
    edit(wt.path, 'README.md', '# Project, by the helper\n');
    edit(wt.path, 'clean-new.txt', 'would merge cleanly\n');
    const folderBefore = fingerprint(repo.repo);
    const before = personState(repo);

    expect(await worktrees.merge(wt)).toEqual({ kind: 'conflict', files: ['src/app.ts'] });

    // Every file of the folder as it was (git's object store aside, which the snapshot adds to).
    expect(fingerprint(repo.repo)).toEqual(folderBefore);
    expect(personState(repo)).toEqual(before);
    const version = await worktrees.version(wt);
    expect(version.find((file) => file.path === 'src/app.ts')).toEqual({
      path: 'src/app.ts',
      theirs: APP.replace('two = 2', 'two = "the helper\'s"'),
      base: APP,
      ours: APP.replace('two = 2', 'two = "the person\'s"'),
      conflict: true,
    });
    expect(version.map((file) => [file.path, file.conflict])).toEqual([
      ['README.md', false],
      ['clean-new.txt', false],
      ['src/app.ts', true],
    ]);
    await worktrees.remove(wt);
  });

  it("with 'theirs' takes the helper's version of the conflicting files and merges the rest", async () => {
    const { repo, worktrees, edit } = setup();
    const wt = await worktrees.create('helper-1');
    repo.write('README.md', '# The person rewrote it\n');
    repo.write('src/app.ts', APP.replace('one = 1', 'one = 100'));
    edit(wt.path, 'README.md', '# The helper rewrote it\n');
    edit(wt.path, 'src/app.ts', APP.replace('three = 3', 'three = 300'));
    expect(await worktrees.merge(wt, 'theirs')).toEqual({ kind: 'merged', files: ['README.md', 'src/app.ts'], conflicted: ['README.md'] });
    expect(repo.read('README.md')).toBe('# The helper rewrote it\n');
    expect(repo.read('src/app.ts')).toBe('export const one = 100;\nexport const two = 2;\nexport const three = 300;\n');
    await worktrees.remove(wt);
  });

  it("with 'markers' writes conflict markers for the person to merge by hand", async () => {
    const { repo, worktrees, edit } = setup();
    const wt = await worktrees.create('helper-1');
    repo.write('src/app.ts', APP.replace('two = 2', 'two = 20'));
    edit(wt.path, 'src/app.ts', APP.replace('two = 2', 'two = 22'));
    expect(await worktrees.merge(wt, 'markers')).toEqual({ kind: 'merged', files: ['src/app.ts'], conflicted: ['src/app.ts'] });
    expect(repo.read('src/app.ts')).toBe(
      'export const one = 1;\n<<<<<<< folder\nexport const two = 20;\n=======\nexport const two = 22;\n>>>>>>> helper-1\nexport const three = 3;\n',
    );
    await worktrees.remove(wt);
  });

  it('a binary file changed on both sides is a conflict, even with markers; the same change on both sides is not', async () => {
    const { repo, worktrees, edit } = setup();
    repo.write('image.bin', Buffer.from([0, 1, 2]));
    repo.commitAll('image');
    const wt = await worktrees.create('helper-1');
    repo.write('image.bin', Buffer.from([0, 9, 9]));
    writeFileSync(path.join(wt.path, 'image.bin'), Buffer.from([0, 7, 7]));
    repo.write('README.md', '# Same\n');
    edit(wt.path, 'README.md', '# Same\n');
    const folderBefore = fingerprint(repo.repo);
    expect(await worktrees.merge(wt, 'markers')).toEqual({ kind: 'conflict', files: ['image.bin'] });
    expect(fingerprint(repo.repo)).toEqual(folderBefore);
    expect(await worktrees.merge(wt, 'theirs')).toEqual({ kind: 'merged', files: ['README.md', 'image.bin'], conflicted: ['image.bin'] });
    expect(readFileSync(path.join(repo.repo, 'image.bin'))).toEqual(Buffer.from([0, 7, 7]));
    await worktrees.remove(wt);
  });

  it('a file the person deleted and the helper changed is a conflict', async () => {
    const { repo, worktrees, edit } = setup();
    const wt = await worktrees.create('helper-1');
    repo.remove('README.md');
    edit(wt.path, 'README.md', '# Improved\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'conflict', files: ['README.md'] });
    expect(repo.exists('README.md')).toBe(false);
    await worktrees.remove(wt);
  });

  it('two helpers merged one after the other: the second merges against the folder holding the first’s change', async () => {
    const { repo, worktrees, edit } = setup();
    const [a, b] = await Promise.all([worktrees.create('helper-1'), worktrees.create('helper-2')]);
    edit(a.path, 'src/app.ts', APP.replace('one = 1', 'one = "A"'));
    edit(b.path, 'src/app.ts', APP.replace('three = 3', 'three = "B"'));
    const [first, second] = await Promise.all([worktrees.merge(a), worktrees.merge(b)]);
    expect(first).toEqual({ kind: 'merged', files: ['src/app.ts'] });
    expect(second).toEqual({ kind: 'merged', files: ['src/app.ts'] });
    expect(repo.read('src/app.ts')).toBe('export const one = "A";\nexport const two = 2;\nexport const three = "B";\n');
    await worktrees.remove(a);
    await worktrees.remove(b);
  });

  it('a helper that changed nothing merges nothing', async () => {
    const { repo, worktrees } = setup();
    const wt = await worktrees.create('helper-1');
    writeFileSync(path.join(wt.path, 'ignored.log'), 'ignored by .gitignore\n');
    expect(await worktrees.merge(wt)).toEqual({ kind: 'nothing' });
    expect(repo.exists('ignored.log')).toBe(false);
    await worktrees.remove(wt);
  });
});
