import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { restoreHelpers } from '../../../main/session/restoreHelpers';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';

// A resumed session lists its helpers as they ended; one that was working when Keel stopped is
// shown as stopped, and its step is the main agent's again.

const harnesses: AgentHarness[] = [];
let dataDir: string | undefined;
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('helpers of a resumed session', { timeout: 60_000 }, () => {
  it('lists a finished helper with its answer after Keel starts again; it can no longer be stopped or edited', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
    const first = await startAgentHarness(
      [
        reply(toolUse('todo', { items: [{ id: 'a', content: 'Write a.txt', status: 'pending' }] })),
        reply(toolUse('delegate', { item: 'a', instructions: 'Create a.txt for the resume test.' })),
        reply(text('Done.')),
      ],
      {
        tools: workspaceTools(),
        dataDir,
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Create a.txt for the resume test.',
              script: [reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' })), reply(text('Wrote a.txt.'))],
            },
          ],
        },
      },
    );
    harnesses.push(first);
    expect((await sendTask(first, 'write a.txt')).outcome).toBe('done');
    const { workspace } = first;
    const sessionId = first.core.currentSession!.id;
    first.core.currentSession!.close();

    const second = await startAgentHarness([], { dataDir });
    harnesses.push(second);
    const opened = second.core.openWorkspace(workspace, { sessionId });
    expect(opened.ok).toBe(true);
    const list = await second.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.id, h.state, h.merge, h.answer, h.changedFiles])).toEqual([
      ['helper-1', 'done', 'in_place', 'Wrote a.txt.', ['a.txt']],
    ]);
    const stop = await second.core.handlers['helper.stop']({ id: 'helper-1' });
    expect(stop.ok && stop.value.stopped).toBe(false);
    const edit = await second.core.handlers['helper.editPlan']({ id: 'helper-1', baseVersion: 0, items: [] });
    expect(!edit.ok && edit.error.code).toBe('helper_ended');
  });

  it('shows a helper that was working when Keel stopped as stopped', () => {
    const info = {
      id: 'helper-1',
      item: 'a',
      content: 'Write a.txt',
      instructions: 'x',
      state: 'tool',
      tool: 'bash',
      plan: [],
      planVersion: 0,
      changedFiles: [],
      merge: 'pending',
      conflictFiles: [],
      worktreeKept: false,
      isolation: 'worktree',
      startedAt: '2026-12-03T15:00:00.000Z',
    };
    const restored = restoreHelpers([
      { type: 'helper', helper: { ...info, state: 'starting' }, at: '2026-12-03T15:00:00.000Z' },
      { type: 'helper', helper: info, at: '2026-12-03T15:00:05.000Z' },
      { type: 'helper', helper: { ...info, id: 'helper-2', state: 'oddity' }, at: '2026-12-03T15:00:06.000Z' },
    ]);
    expect(restored).toEqual([
      { ...info, state: 'stopped', tool: undefined, reasonCode: 'internal', reason: 'Keel stopped while it worked.', endedAt: '2026-12-03T15:00:05.000Z' },
    ]);
  });
});
