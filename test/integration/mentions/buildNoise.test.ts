import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listWorkspaceFiles } from '../../../main/mentions/workspaceFiles';

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('@-mention files in a folder without a .gitignore', () => {
  it('offers the sources, not compiled Python, tool caches or desktop litter', async () => {
    folder = mkdtempSync(join(tmpdir(), 'keel-mentions-'));
    for (const file of [
      'app.py',
      'pkg/util.py',
      'pkg/__pycache__/util.cpython-311.pyc',
      'old.pyc',
      '.pytest_cache/v/cache/nodeids',
      '.DS_Store',
      'docs/README.md',
      'pycache_notes.txt',
    ]) {
      mkdirSync(join(folder, file, '..'), { recursive: true });
      writeFileSync(join(folder, file), 'x');
    }
    const found: string[] = [];
    await listWorkspaceFiles(folder, (path) => void found.push(path));
    expect(found.sort()).toEqual(['app.py', 'docs/README.md', 'pkg/util.py', 'pycache_notes.txt']);
  });
});
