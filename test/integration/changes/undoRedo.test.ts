import { chmodSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { hang, reply, text, toolUse } from '../../support/scriptedAnthropic';
import { waitFor, waitForEvent, type TaskFinished } from '../agent/scenario';
import { listChanges, redo, startChangesHarness, states, undo, type ChangesHarness } from './changesScenario';

let harness: ChangesHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// GBK with CRLF line endings: undo must give back these exact bytes, not a re-encoded UTF-8 copy.
const GBK_BEFORE = iconv.encode('第一行：你好世界。\r\n第二行：这是测试。\r\n', 'gbk');
const NEW_FILE = 'export const greeting = "hello";\n';

describe('the Changes view: what a task changed, undone and redone', () => {
  it('lists an edited GBK/CRLF file and a created file with diffs; undo puts both back byte for byte; redo brings the agent versions back', async () => {
    harness = await startChangesHarness([
      reply(
        text('Editing the notes and adding a module.'),
        toolUse('edit_file', { path: 'notes.txt', old_text: '这是测试', new_text: '已经修改' }),
        toolUse('write_file', { path: 'src/greeting.ts', content: NEW_FILE }),
      ),
      reply(text('Done.')),
    ]);
    harness.write('notes.txt', GBK_BEFORE);
    const taskId = await harness.task('fix the notes and add a greeting');
    expect(harness.changedEvents()).toBeGreaterThan(0);

    const agentNotes = harness.read('notes.txt');
    const agentGreeting = harness.read('src/greeting.ts');
    expect(agentNotes).toEqual(iconv.encode('第一行：你好世界。\r\n第二行：已经修改。\r\n', 'gbk'));

    const tasks = await listChanges(harness.core);
    expect(tasks).toHaveLength(1);
    const [task] = tasks;
    expect(task).toMatchObject({ taskId, title: 'fix the notes and add a greeting' });
    expect(task!.files.map((f) => [f.path, f.kind, f.state])).toEqual([
      ['notes.txt', 'edited', 'applied'],
      ['src/greeting.ts', 'created', 'applied'],
    ]);
    // Decoded with the file's own encoding, and CRLF shown as plain lines.
    const notesDiff = task!.files[0]!.diff;
    expect(notesDiff).toContain('--- a/notes.txt');
    expect(notesDiff).toContain('+++ b/notes.txt');
    expect(notesDiff).toContain('-第二行：这是测试。\n');
    expect(notesDiff).toContain('+第二行：已经修改。\n');
    expect(notesDiff).not.toContain('\r');
    const greetingDiff = task!.files[1]!.diff;
    expect(greetingDiff).toContain('--- /dev/null');
    expect(greetingDiff).toContain('+export const greeting = "hello";');

    const eventsBeforeUndo = harness.changedEvents();
    expect(await undo(harness.core, { taskId })).toEqual({ done: ['notes.txt', 'src/greeting.ts'], conflicts: [] });
    expect(harness.read('notes.txt')).toEqual(GBK_BEFORE);
    expect(existsSync(path.join(harness.workspace, 'src/greeting.ts'))).toBe(false);
    expect(harness.changedEvents()).toBeGreaterThan(eventsBeforeUndo);
    expect(states(await listChanges(harness.core), taskId)).toEqual({ 'notes.txt': 'undone', 'src/greeting.ts': 'undone' });

    // A second undo has nothing left to do.
    expect(await undo(harness.core, { taskId })).toEqual({ done: [], conflicts: [] });

    expect(await redo(harness.core, { taskId })).toEqual({ done: ['notes.txt', 'src/greeting.ts'], conflicts: [] });
    expect(harness.read('notes.txt')).toEqual(agentNotes);
    expect(harness.read('src/greeting.ts')).toEqual(agentGreeting);
    expect(states(await listChanges(harness.core), taskId)).toEqual({ 'notes.txt': 'applied', 'src/greeting.ts': 'applied' });
  });

  it('undoes one file of a task and leaves the other; a later whole-task undo does the rest', async () => {
    harness = await startChangesHarness([
      reply(toolUse('write_file', { path: 'a.txt', content: 'agent a\n' }), toolUse('write_file', { path: 'b.txt', content: 'agent b\n' })),
      reply(text('Both written.')),
    ]);
    const bomCrlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('person a\r\nline two\r\n')]);
    harness.write('a.txt', bomCrlf);
    harness.write('b.txt', 'person b\n');
    const taskId = await harness.task('rewrite a and b');
    // write_file kept the BOM and the CRLF endings.
    expect(harness.read('a.txt')).toEqual(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('agent a\r\n')]));

    expect(await undo(harness.core, { taskId, path: 'a.txt' })).toEqual({ done: ['a.txt'], conflicts: [] });
    expect(harness.read('a.txt')).toEqual(bomCrlf);
    expect(harness.read('b.txt')).toEqual(Buffer.from('agent b\n'));
    expect(states(await listChanges(harness.core), taskId)).toEqual({ 'a.txt': 'undone', 'b.txt': 'applied' });

    expect(await undo(harness.core, { taskId })).toEqual({ done: ['b.txt'], conflicts: [] });
    expect(harness.read('b.txt')).toEqual(Buffer.from('person b\n'));

    // Redo of one file only.
    expect(await redo(harness.core, { taskId, path: 'b.txt' })).toEqual({ done: ['b.txt'], conflicts: [] });
    expect(harness.read('b.txt')).toEqual(Buffer.from('agent b\n'));
    expect(harness.read('a.txt')).toEqual(bomCrlf);
  });

  it.skipIf(process.platform === 'win32')('keeps the file mode through undo and redo', async () => {
    harness = await startChangesHarness([reply(toolUse('edit_file', { path: 'run.sh', old_text: 'echo old', new_text: 'echo new' })), reply(text('Edited.'))]);
    const script = harness.write('run.sh', '#!/bin/sh\necho old\n');
    chmodSync(script, 0o750);
    const taskId = await harness.task('change the script');
    expect(await undo(harness.core, { taskId })).toEqual({ done: ['run.sh'], conflicts: [] });
    expect(harness.read('run.sh').toString()).toBe('#!/bin/sh\necho old\n');
    expect(statSync(script).mode & 0o7777).toBe(0o750);
    expect(await redo(harness.core, { taskId })).toEqual({ done: ['run.sh'], conflicts: [] });
    expect(harness.read('run.sh').toString()).toBe('#!/bin/sh\necho new\n');
    expect(statSync(script).mode & 0o7777).toBe(0o750);
  });

  it('says a binary or huge file changed instead of diffing it, and still puts its bytes back', async () => {
    harness = await startChangesHarness([
      reply(toolUse('write_file', { path: 'logo.bin', content: 'now text\n' }), toolUse('write_file', { path: 'big.log', content: 'truncated\n' })),
      reply(text('Replaced.')),
    ]);
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x01, 0x02]);
    const huge = Buffer.from('a log line that repeats\n'.repeat(100_000));
    harness.write('logo.bin', binary);
    harness.write('big.log', huge);
    const taskId = await harness.task('replace the logo and clear the log');
    const [task] = await listChanges(harness.core);
    expect(task!.files).toEqual([
      { path: 'logo.bin', kind: 'edited', state: 'applied', diff: 'Binary file (11 bytes → 9 bytes); no diff is shown.' },
      {
        path: 'big.log',
        kind: 'edited',
        state: 'applied',
        diff: expect.stringMatching(/^Too large to show a diff \(.+ → 10 bytes; diffs are shown up to .+\)\.$/),
      },
    ]);
    expect(await undo(harness.core, { taskId })).toEqual({ done: ['logo.bin', 'big.log'], conflicts: [] });
    expect(harness.read('logo.bin')).toEqual(binary);
    // Buffer.equals: a deep toEqual over 2 MB of bytes takes vitest tens of seconds.
    expect(harness.read('big.log').equals(huge)).toBe(true);
  });

  it('lists no task that changed nothing, and no write that left a file as it was', async () => {
    harness = await startChangesHarness([
      reply(toolUse('read_file', { path: 'same.txt' })),
      reply(text('Read it.')),
      reply(toolUse('write_file', { path: 'same.txt', content: 'unchanged\n' })),
      reply(text('Wrote the same thing.')),
    ]);
    harness.write('same.txt', 'unchanged\n');
    await harness.task('just read');
    await harness.task('write the same bytes');
    expect(await listChanges(harness.core)).toEqual([]);
  });

  it("shows a running task's changes as they happen, refuses to undo it until it ends, and undoes it after a stop", async () => {
    harness = await startChangesHarness([reply(toolUse('write_file', { path: 'live.txt', content: 'agent\n' })), hang()]);
    harness.write('live.txt', 'before\n');
    const sent = await harness.core.handlers['task.send']({ text: 'write and keep thinking' });
    if (!sent.ok) throw new Error(sent.error.message);
    const h = harness;
    await waitFor(() => h.changedEvents() > 0, 'a changes.changed event after the write');
    expect((await listChanges(h.core)).map((t) => [t.taskId, t.files.map((f) => f.path)])).toEqual([[sent.value.taskId, ['live.txt']]]);
    expect(await h.core.handlers['changes.undo']({ taskId: sent.value.taskId })).toMatchObject({ ok: false, error: { code: 'task_running' } });

    h.core.currentAgent!.stop();
    const finished = await waitForEvent(h, (e): e is TaskFinished => e.type === 'task_finished');
    expect(finished.outcome).toBe('cancelled');
    expect(await undo(h.core, { taskId: sent.value.taskId })).toEqual({ done: ['live.txt'], conflicts: [] });
    expect(h.read('live.txt').toString()).toBe('before\n');
  });
});
