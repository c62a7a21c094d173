import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HelperInfo } from '../../../common/helpers';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, textOf, toolResults, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';

// Helpers in a folder that is not a git repository: they run one at a time in the folder itself,
// each with a fresh context, and the main agent reads both results in its next request.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const plan = [
  { id: 'a', content: 'Write a.txt', status: 'pending' },
  { id: 'b', content: 'Write b.txt', status: 'pending' },
];

const resultTexts = (request: ScriptedRequest): string[] =>
  toolResults(request).map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));

describe('helpers outside git', { timeout: 60_000 }, () => {
  it('runs two delegated steps one at a time in the folder, each from a fresh context, and answers the main agent with both', async () => {
    const changed: HelperInfo[] = [];
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: plan })),
        reply(
          toolUse('delegate', { item: 'a', instructions: 'Create a.txt containing the letter A.' }),
          toolUse('delegate', { item: 'b', instructions: 'Create b.txt containing the letter B.' }),
        ),
        reply(text('Both files are written.')),
      ],
      {
        tools: workspaceTools(),
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Create a.txt containing',
              script: [reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' })), reply(text('Wrote a.txt.'))],
            },
            {
              name: 'B',
              firstMessage: 'Create b.txt containing',
              script: [reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' })), reply(text('Wrote b.txt.'))],
            },
          ],
        },
      },
    );
    harness.core.onEvent((event) => {
      if (event.channel === 'helper.changed') changed.push(event.payload);
    });
    const finished = await sendTask(harness, 'write the two files');
    expect(finished.outcome).toBe('done');
    const { server, workspace } = harness;
    expect(server.errors).toEqual([]);
    expect(server.remaining).toBe(0);

    // Fresh contexts: each helper's first request is its one first message, naming its step.
    const [a1, b1] = [server.agent('A').requests[0]!, server.agent('B').requests[0]!];
    expect(a1.body.messages).toHaveLength(1);
    expect(textOf(a1.body.messages[0])).toContain('Step #a: Write a.txt');
    expect(textOf(a1.body.messages[0])).not.toContain('write the two files');
    expect(b1.body.messages).toHaveLength(1);
    // Helpers cannot delegate: the tool is not offered to them.
    expect((a1.body.tools ?? []).map((t) => ('name' in t ? t.name : ''))).not.toContain('delegate');
    expect((server.requests[0]!.body.tools ?? []).map((t) => ('name' in t ? t.name : ''))).toContain('delegate');
    // One at a time in the folder: B starts after A ended.
    expect(server.requests.map((r) => r.agent ?? 'main')).toEqual(['main', 'main', 'A', 'A', 'B', 'B', 'main']);

    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('B\n');
    const results = resultTexts(server.requests.at(-1)!);
    expect(results).toHaveLength(2);
    expect(results[0]).toContain('helper-1 finished step #a');
    expect(results[0]).toContain('Files changed: a.txt.');
    expect(results[0]).toContain('made in the folder itself');
    expect(results[0]).toContain('Wrote a.txt.');
    expect(results[1]).toContain('helper-2 finished step #b');

    // The main plan: both steps completed by their helpers; the board heard every helper change.
    const items = harness.core.currentSession!.plan.items;
    expect(items.map((i) => [i.id, i.status, i.owner])).toEqual([
      ['a', 'completed', 'helper-1'],
      ['b', 'completed', 'helper-2'],
    ]);
    const list = await harness.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => [h.id, h.state, h.merge, h.isolation])).toEqual([
      ['helper-1', 'done', 'in_place', 'in_place_not_git'],
      ['helper-2', 'done', 'in_place', 'in_place_not_git'],
    ]);
    expect(changed.some((info) => info.id === 'helper-1' && info.state === 'tool' && info.tool === 'write_file')).toBe(true);
    // Each helper keeps its own transcript beside the session's.
    const session = harness.core.currentSession!;
    const helpersDir = session.transcriptPath.replace(/\.jsonl$/, '.helpers');
    expect(readdirSync(helpersDir).sort()).toEqual(['helper-1.jsonl', 'helper-2.jsonl']);
    expect(readFileSync(join(helpersDir, 'helper-1.jsonl'), 'utf8')).toContain('Wrote a.txt.');
    expect(existsSync(join(workspace, '.git'))).toBe(false);
  });
});
