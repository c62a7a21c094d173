import { describe, expect, it } from 'vitest';
import { CHANGE_CONFLICT_CODES } from '../../../common/changeConflicts';
import { conflictText } from '../../../renderer/changes/conflictText';
import { translator } from '../../../renderer/i18n/translate';

describe('why an undo left a file alone, in the person’s language', () => {
  const zh = translator('zh-CN');
  const en = translator('en');

  it('says a later task’s change in Chinese, with the task named, not main’s English', () => {
    const conflict = {
      path: 'app.ts',
      reason: 'A later task, "make it three", also changed "app.ts".',
      code: 'later_task' as const,
      params: { task: 'make it three' },
    };
    expect(conflictText(conflict, 'undo', zh)).toBe('之后的任务“make it three”也改动了这个文件。请先撤销那个任务对它的改动，或者仍然撤销以覆盖它。');
    expect(conflictText(conflict, 'redo', en)).toContain('or redo anyway');
  });

  it('has words for every code, direction and kind in both languages (no key shown raw)', () => {
    for (const code of CHANGE_CONFLICT_CODES) {
      for (const action of ['undo', 'redo'] as const) {
        for (const type of ['folder', 'link', 'special']) {
          for (const t of [en, zh]) {
            const text = conflictText(
              { path: 'a.txt', reason: 'English', code, params: { type, task: 'T', folder: '/d', target: '/x', message: 'EBUSY' } },
              action,
              t,
            );
            expect(text).not.toMatch(/^changes\./);
            expect(text).not.toBe('English');
          }
        }
      }
    }
  });

  it('falls back to main’s own words when no code came with them', () => {
    expect(conflictText({ path: 'a.txt', reason: 'from an older Keel' }, 'undo', zh)).toBe('from an older Keel');
  });
});
