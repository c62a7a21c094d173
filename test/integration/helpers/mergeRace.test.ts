import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HelperWorktrees } from '../../../main/helpers/git';
import { fileWriteLockHolders, withFileWriteLock } from '../../../main/platform/fileWriteLock';
import { writeFileTool } from '../../../main/tools/files';
import { waitFor } from '../agent/scenario';
import { cleanupRepos, makeRepo } from './gitFixture';

// The main agent writes a file of the folder while a helper's merge into it is under way: the
// merge sees the write (and merges with it, or conflicts) or happens before it. No write is lost.

afterEach(cleanupRepos);

const APP = 'export const one = 1;\nexport const two = 2;\nexport const three = 3;\n';

/**
 * A helper that changed line three of src/app.ts, and a write of the same file that is under way
 * when the merge comes to write it: it lands after the merge read the folder, before it writes.
 */
async function mergeDuringWrite(written: string) {
  const repo = makeRepo();
  const worktrees = new HelperWorktrees({ workspace: repo.repo, dataDir: repo.dataDir });
  const wt = await worktrees.create('helper-1');
  writeFileSync(path.join(wt.path, 'src/app.ts'), APP.replace('three = 3', 'three = 300'));
  const file = path.join(repo.repo, 'src', 'app.ts');
  let merging: ReturnType<HelperWorktrees['merge']> | undefined;
  await withFileWriteLock(file, async () => {
    merging = worktrees.merge(wt);
    // The merge has planned against the folder and waits to write the file.
    await waitFor(() => fileWriteLockHolders(file) === 2, 'the merge waits to write src/app.ts');
    writeFileSync(file, written);
  });
  return { repo, outcome: await merging! };
}

describe('a write racing a helper’s merge into the folder', { timeout: 60_000 }, () => {
  it('a write to another part of the file: the merge plans again and keeps both', async () => {
    const { repo, outcome } = await mergeDuringWrite(APP.replace('one = 1', 'one = 100'));
    expect(outcome).toEqual({ kind: 'merged', files: ['src/app.ts'] });
    expect(repo.read('src/app.ts')).toBe(APP.replace('one = 1', 'one = 100').replace('three = 3', 'three = 300'));
  });

  it('a write of the same line: a conflict, and the file is as the write left it', async () => {
    const written = APP.replace('three = 3', 'three = "the agent\'s"');
    const { repo, outcome } = await mergeDuringWrite(written);
    expect(outcome).toEqual({ kind: 'conflict', files: ['src/app.ts'] });
    expect(repo.read('src/app.ts')).toBe(written);
  });

  it('write_file waits while a merge writes that file, then replaces it whole', async () => {
    const repo = makeRepo();
    const file = path.join(repo.repo, 'src', 'app.ts');
    let written: Promise<unknown> | undefined;
    await withFileWriteLock(file, async () => {
      written = writeFileTool.run({ path: 'src/app.ts', content: 'the agent’s\n' }, { workspace: repo.repo, signal: new AbortController().signal });
      await waitFor(() => fileWriteLockHolders(file) === 2, 'write_file waits for the file');
      // Meanwhile the merge's write goes in: write_file comes after it, never in the middle.
      expect(readFileSync(file, 'utf8')).toBe(APP);
      writeFileSync(file, 'merged\n');
    });
    await written;
    expect(repo.read('src/app.ts')).toBe('the agent’s\n');
    expect(fileWriteLockHolders(file)).toBe(0);
  });
});
