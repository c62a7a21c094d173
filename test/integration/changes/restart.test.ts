import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeelCore } from '../../../main/api/core';
import { fileTools } from '../../../main/tools/files';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { listChanges, redo, startChangesHarness, states, undo, unwrap, type ChangesHarness } from './changesScenario';

let harness: ChangesHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A new KeelCore on the same data folder and workspace: what a restart of the app gives. */
function restart(h: ChangesHarness, logs: string[]): KeelCore {
  const core = new KeelCore({
    dataDir: h.dataDir,
    host: 'web',
    version: 'test',
    tools: () => fileTools,
    settings: () => h.settings,
    headless: true,
    log: (m) => logs.push(m),
  });
  unwrap(core.openWorkspace(h.workspace));
  return core;
}

describe('the change history survives a restart', () => {
  it('a new KeelCore on the same data folder lists the same changes and can undo and redo them; a damaged index line is skipped with a warning', async () => {
    harness = await startChangesHarness([
      reply(toolUse('write_file', { path: 'kept.txt', content: 'agent\n' }), toolUse('write_file', { path: 'fresh.txt', content: 'brand new\n' })),
      reply(text('Written.')),
    ]);
    harness.write('kept.txt', 'before\n');
    const taskId = await harness.task('write two files');
    const listed = await listChanges(harness.core);
    expect(listed).toHaveLength(1);

    const sessionId = harness.core.currentSession!.id;
    const folder = path.join(harness.dataDir, 'changes', sessionId);
    expect(readdirSync(path.join(folder, 'blobs')).every((name) => /^[0-9a-f]{64}$/.test(name))).toBe(true);
    // A line Keel does not know, then a crash mid-line: both are skipped, the rest is kept.
    appendFileSync(path.join(folder, 'index.jsonl'), '{"type":"mystery"}\n{"type":"after","taskId":"x","pa');
    const logs: string[] = [];
    const second = restart(harness, logs);
    expect(second.currentSession!.id).toBe(sessionId);
    expect(logs.some((m) => /index\.jsonl: line \d+ is damaged \(it was cut off/.test(m))).toBe(true);
    expect(logs.some((m) => m.includes('is not a change record Keel understands'))).toBe(true);
    expect(await listChanges(second)).toEqual(listed);

    expect(await undo(second, { taskId })).toEqual({ done: ['kept.txt', 'fresh.txt'], conflicts: [] });
    expect(harness.read('kept.txt').toString()).toBe('before\n');

    // The undo is recorded too: a third start sees it, and redo works from there.
    const thirdLogs: string[] = [];
    const third = restart(harness, thirdLogs);
    // The cut line no longer swallowed the undo records written after it.
    expect(thirdLogs.some((m) => /line \d+ is damaged and was skipped/.test(m))).toBe(true);
    expect(states(await listChanges(third), taskId)).toEqual({ 'kept.txt': 'undone', 'fresh.txt': 'undone' });
    expect(await redo(third, { taskId })).toEqual({ done: ['kept.txt', 'fresh.txt'], conflicts: [] });
    expect(harness.read('kept.txt').toString()).toBe('agent\n');
    expect(harness.read('fresh.txt').toString()).toBe('brand new\n');
  });
});
