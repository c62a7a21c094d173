import { describe, expect, it } from 'vitest';
import type { HelperInfo } from '../../../common/helpers';
import { liveStateText, mergeText, reasonText } from '../../../renderer/helpers/helperWords';
import { translator } from '../../../renderer/i18n/translate';

/* What the board says of a helper, in English and in 中文. */

const en = translator('en');
const zh = translator('zh-CN');
const info = (change: Partial<HelperInfo>): HelperInfo => ({
  id: 'helper-1',
  item: 'a',
  content: 'Fix the parser',
  instructions: 'Fix it',
  state: 'done',
  plan: [],
  planVersion: 0,
  changedFiles: [],
  merge: 'merged',
  conflictFiles: [],
  worktreeKept: false,
  isolation: 'worktree',
  startedAt: '2026-12-03T15:00:00.000Z',
  ...change,
});

describe('a helper in words', () => {
  it('says what it does now', () => {
    expect(liveStateText({ state: 'starting' }, en)).toBe('starting');
    expect(liveStateText({ state: 'thinking' }, en)).toBe('thinking');
    expect(liveStateText({ state: 'tool', tool: 'bash' }, en)).toBe('running bash');
    expect(liveStateText({ state: 'tool' }, en)).toBe('running a tool');
    expect(liveStateText({ state: 'waiting_approval', tool: 'edit_file' }, en)).toBe('waiting for approval of edit_file');
    expect(liveStateText({ state: 'conflict' }, en)).toBe('conflict');
    expect(liveStateText({ state: 'tool', tool: 'bash' }, zh)).toBe('正在运行 bash');
    expect(liveStateText({ state: 'stopped' }, zh)).toBe('已停止');
  });

  it('says why it ended in the window’s language when main gave a code, else main’s words', () => {
    expect(reasonText(info({ state: 'stopped', reasonCode: 'stopped_by_person', reason: 'Stopped by the person.' }), en)).toBe('Stopped by you.');
    expect(reasonText(info({ state: 'failed', reasonCode: 'stalled' }), zh)).toBe('已停止：太久没有进展。');
    expect(reasonText(info({ state: 'failed', reason: 'Disk full.' }), en)).toBe('Disk full.');
    expect(reasonText(info({}), en)).toBeNull();
  });

  it('says what became of its changes only when nothing is left to do', () => {
    expect(mergeText(info({ merge: 'merged' }), en)).toBe('Merged into the folder.');
    expect(mergeText(info({ merge: 'nothing' }), zh)).toBe('它没有修改任何文件。');
    expect(mergeText(info({ merge: 'conflict', state: 'conflict' }), en)).toBeNull();
  });
});
