import { describe, expect, test } from 'vitest';
import type { TaskChanges } from '../../../common/contract';
import { changedFileCount } from '../../../renderer/changes/changedFiles';

const task = (taskId: string, files: [string, 'applied' | 'undone'][]): TaskChanges => ({
  taskId,
  title: taskId,
  at: '2026-12-03T19:00:00.000Z',
  files: files.map(([path, state]) => ({ path, kind: 'edited', diff: '', state })),
});

describe('the Changes button counts files, not edits', () => {
  test('a file two tasks edited is one file; an undone one is not counted', () => {
    expect(changedFileCount([task('t1', [['calc.py', 'applied']]), task('t2', [['calc.py', 'applied']])])).toBe(1);
    expect(
      changedFileCount([
        task('t1', [
          ['calc.py', 'applied'],
          ['notes.md', 'undone'],
        ]),
        task('t2', [['test_calc.py', 'applied']]),
      ]),
    ).toBe(2);
    expect(changedFileCount(null)).toBe(0);
  });
});
