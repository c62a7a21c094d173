import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { listChanges, redo, startChangesHarness, states, undo, type ChangesHarness } from './changesScenario';

let harness: ChangesHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('undo and redo never overwrite what someone else changed, unless forced', () => {
  it('reports a file the person edited after the agent as a conflict, leaves it untouched, undoes the rest; force overwrites', async () => {
    harness = await startChangesHarness([
      reply(toolUse('write_file', { path: 'mine.txt', content: 'agent\n' }), toolUse('write_file', { path: 'other.txt', content: 'agent other\n' })),
      reply(text('Written.')),
    ]);
    harness.write('mine.txt', 'original\n');
    harness.write('other.txt', 'original other\n');
    const taskId = await harness.task('rewrite both');

    harness.write('mine.txt', 'the person kept typing\n');
    const result = await undo(harness.core, { taskId });
    expect(result.done).toEqual(['other.txt']);
    expect(result.conflicts).toEqual([
      { path: 'mine.txt', reason: expect.stringContaining('"mine.txt" was changed after the agent wrote it'), code: 'changed_since', params: {} },
    ]);
    expect(harness.read('mine.txt').toString()).toBe('the person kept typing\n');
    expect(harness.read('other.txt').toString()).toBe('original other\n');
    expect(states(await listChanges(harness.core), taskId)).toEqual({ 'mine.txt': 'applied', 'other.txt': 'undone' });

    // The window asked the person, who chose to undo anyway.
    expect(await undo(harness.core, { taskId, path: 'mine.txt', force: true })).toEqual({ done: ['mine.txt'], conflicts: [] });
    expect(harness.read('mine.txt').toString()).toBe('original\n');
  });

  it('does not redo over a file changed since the undo, nor undo a file deleted since, unless forced', async () => {
    harness = await startChangesHarness([
      reply(toolUse('edit_file', { path: 'doc.md', old_text: 'draft', new_text: 'final' }), toolUse('write_file', { path: 'made.txt', content: 'new\n' })),
      reply(text('Edited.')),
    ]);
    harness.write('doc.md', '# draft\n');
    const taskId = await harness.task('finalise the doc');

    unlinkSync(path.join(harness.workspace, 'made.txt'));
    const first = await undo(harness.core, { taskId });
    expect(first.done).toEqual(['doc.md']);
    expect(first.conflicts).toEqual([
      { path: 'made.txt', reason: expect.stringContaining('"made.txt" was deleted after the agent wrote it'), code: 'deleted_since', params: {} },
    ]);

    harness.write('doc.md', '# draft, edited by hand\n');
    const second = await redo(harness.core, { taskId });
    expect(second).toEqual({
      done: [],
      conflicts: [{ path: 'doc.md', reason: expect.stringContaining('changed after its change was undone'), code: 'changed_since', params: {} }],
    });
    expect(harness.read('doc.md').toString()).toBe('# draft, edited by hand\n');

    expect(await redo(harness.core, { taskId, force: true })).toEqual({ done: ['doc.md'], conflicts: [] });
    expect(harness.read('doc.md').toString()).toBe('# final\n');
  });

  it('refuses to undo an older task under a later task that changed the same file, naming it; newest first works', async () => {
    harness = await startChangesHarness([
      reply(toolUse('edit_file', { path: 'app.ts', old_text: 'one', new_text: 'two' })),
      reply(text('First.')),
      reply(toolUse('edit_file', { path: 'app.ts', old_text: 'two', new_text: 'three' }), toolUse('write_file', { path: 'extra.ts', content: 'x\n' })),
      reply(text('Second.')),
    ]);
    harness.write('app.ts', 'const n = "one";\n');
    const first = await harness.task('make it two');
    const second = await harness.task('make it three');

    const refused = await undo(harness.core, { taskId: first });
    expect(refused.done).toEqual([]);
    expect(refused.conflicts).toEqual([
      {
        path: 'app.ts',
        reason: expect.stringContaining('A later task, "make it three", also changed "app.ts"'),
        code: 'later_task',
        params: { task: 'make it three' },
      },
    ]);
    expect(harness.read('app.ts').toString()).toBe('const n = "three";\n');

    expect(await undo(harness.core, { taskId: second })).toEqual({ done: ['app.ts', 'extra.ts'], conflicts: [] });
    expect(harness.read('app.ts').toString()).toBe('const n = "two";\n');
    expect(existsSync(path.join(harness.workspace, 'extra.ts'))).toBe(false);
    expect(await undo(harness.core, { taskId: first })).toEqual({ done: ['app.ts'], conflicts: [] });
    expect(harness.read('app.ts').toString()).toBe('const n = "one";\n');

    // Redoing the older task while the later one is undone is fine; the later one then stacks on top.
    expect(await redo(harness.core, { taskId: first })).toEqual({ done: ['app.ts'], conflicts: [] });
    expect(await redo(harness.core, { taskId: second })).toEqual({ done: ['app.ts', 'extra.ts'], conflicts: [] });
    expect(harness.read('app.ts').toString()).toBe('const n = "three";\n');
  });

  it('answers an unknown task or a file the task did not change with an error that says what to do', async () => {
    harness = await startChangesHarness([reply(toolUse('write_file', { path: 'a.txt', content: 'a\n' })), reply(text('Done.'))]);
    const taskId = await harness.task('write a');
    const unknown = await harness.core.handlers['changes.undo']({ taskId: 'no-such-task' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('Refresh the Changes view') } });
    const notChanged = await harness.core.handlers['changes.redo']({ taskId, path: 'b.txt' });
    expect(notChanged).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('did not change "b.txt"') } });
  });
});
