import { appendFileSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { listChanges, startChangesHarness, undo, unwrap, type ChangesHarness } from './changesScenario';

let harness: ChangesHarness | undefined;
let outside: string;
beforeEach(() => {
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'keel-outside-')));
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(outside, { recursive: true, force: true });
});

describe('undo never touches a file outside the workspace', () => {
  it('records nothing for writes the file tools refused outside the workspace', async () => {
    const target = path.join(outside, 'secret.txt');
    writeFileSync(target, 'outside\n');
    harness = await startChangesHarness([
      reply(toolUse('write_file', { path: target, content: 'overwritten\n' }), toolUse('edit_file', { path: '../escape.txt', old_text: 'a', new_text: 'b' })),
      reply(text('Both were refused.')),
    ]);
    await harness.task('try to escape');
    expect(await listChanges(harness.core)).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('outside\n');
  });

  it.skipIf(process.platform === 'win32')('refuses, even forced, to undo through a folder since replaced by a symbolic link to outside', async () => {
    harness = await startChangesHarness([reply(toolUse('write_file', { path: 'sub/a.txt', content: 'agent\n' })), reply(text('Written.'))]);
    harness.write('sub/a.txt', 'before\n');
    const taskId = await harness.task('write sub/a.txt');

    const outsideFile = path.join(outside, 'a.txt');
    writeFileSync(outsideFile, 'agent\n'); // the same bytes the agent wrote, so only the location differs
    renameSync(path.join(harness.workspace, 'sub'), path.join(harness.workspace, 'sub-moved'));
    symlinkSync(outside, path.join(harness.workspace, 'sub'));

    const result = await undo(harness.core, { taskId, force: true });
    expect(result.done).toEqual([]);
    expect(result.conflicts).toEqual([
      {
        path: 'sub/a.txt',
        reason: expect.stringMatching(/outside the workspace|symbolic link/),
        code: expect.stringMatching(/^(outside|through_symlink)$/),
        params: expect.any(Object),
      },
    ]);
    expect(readFileSync(outsideFile, 'utf8')).toBe('agent\n');
    expect(harness.read('sub-moved/a.txt').toString()).toBe('agent\n');
  });

  it('ignores a hand-edited index line that points outside the workspace', async () => {
    harness = await startChangesHarness([reply(toolUse('write_file', { path: 'a.txt', content: 'agent\n' })), reply(text('Written.'))]);
    const taskId = await harness.task('write a.txt');
    const target = path.join(outside, 'victim.txt');
    writeFileSync(target, 'keep me\n');
    const index = path.join(harness.dataDir, 'changes', harness.core.currentSession!.id, 'index.jsonl');
    const escape = path.relative(harness.workspace, target).split(path.sep).join('/');
    appendFileSync(index, `${JSON.stringify({ type: 'before', taskId, path: escape, hash: null, mode: null, at: new Date().toISOString() })}\n`);
    appendFileSync(index, `${JSON.stringify({ type: 'after', taskId, path: escape, hash: 'a'.repeat(64), mode: 420, at: new Date().toISOString() })}\n`);

    const logs: string[] = [];
    const core = new KeelCore({ dataDir: harness.dataDir, host: 'web', version: 'test', log: (m) => logs.push(m) });
    unwrap(core.openWorkspace(harness.workspace));
    expect(logs.filter((m) => m.includes('is not a change record Keel understands'))).toHaveLength(2);
    expect((await listChanges(core)).flatMap((t) => t.files.map((f) => f.path))).toEqual(['a.txt']);
    expect(await undo(core, { taskId, force: true })).toEqual({ done: ['a.txt'], conflicts: [] });
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  });
});
