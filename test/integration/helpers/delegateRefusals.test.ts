import { afterEach, describe, expect, it } from 'vitest';
import { workspaceTools } from '../../../main/agent/workspaceTools';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';

// What delegate refuses, each with its code first so the model (and this test) can tell them apart.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const resultTexts = (request: ScriptedRequest): string[] =>
  toolResults(request).map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));

const plan = [
  { id: 'a', content: 'Write a.txt', status: 'pending' },
  { id: 'b', content: 'Check a.txt', status: 'pending', blockedBy: ['a'] },
  { id: 'c', content: 'Read the brief', status: 'completed' },
  { id: 'd', content: 'Write d.txt', status: 'pending' },
];

describe('delegate refusals', { timeout: 60_000 }, () => {
  it('refuses an unknown, blocked, completed or owned step, a helper past helpers.max, a bad input, and a helper that delegates', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: plan })),
        reply(
          toolUse('delegate', { item: 'a', instructions: 'Write a.txt with the letter A.' }),
          toolUse('delegate', { item: 'a', instructions: 'Write a.txt again.' }),
          toolUse('delegate', { item: 'd', instructions: 'Write d.txt.' }),
          toolUse('delegate', { item: 'zzz', instructions: 'Anything.' }),
          toolUse('delegate', { item: '#b', instructions: 'Check a.txt.' }),
          toolUse('delegate', { item: 'c', instructions: 'Read it again.' }),
          toolUse('delegate', { item: 'd' }),
        ),
        reply(toolUse('todo', { items: plan.map((item) => ({ id: item.id, content: item.content, status: 'completed' })) })),
        reply(text('Done.')),
      ],
      {
        tools: workspaceTools(),
        settingsFile: { helpers: { max: 1 } },
        server: {
          agents: [
            {
              name: 'A',
              firstMessage: 'Write a.txt with the letter A.',
              script: [
                reply(toolUse('delegate', { item: 'x', instructions: 'Do it for me.' })),
                reply(toolUse('write_file', { path: 'a.txt', content: 'A' })),
                reply(text('Wrote a.txt myself.')),
              ],
            },
          ],
        },
      },
    );
    const finished = await sendTask(harness, 'split the work');
    expect(finished.outcome).toBe('done');
    const { server } = harness;
    expect(server.errors).toEqual([]);
    expect(server.remaining).toBe(0);
    const results = resultTexts(server.requests[server.requests.length - 2]!);
    expect(results.map((r) => r.match(/^\[(\w+)\]/)?.[1] ?? 'ran')).toEqual([
      'ran',
      'item_owned',
      'too_many_helpers',
      'unknown_item',
      'item_blocked',
      'item_completed',
      'bad_input',
    ]);
    expect(results[0]).toContain('helper-1 finished step #a');
    expect(results[3]).toContain('#a, #b, #c, #d');
    expect(results[4]).toContain('#a "Write a.txt"');
    // The helper's own delegate was refused, and it did the step itself.
    const helperResults = resultTexts(server.agent('A').requests[1]!);
    expect(helperResults[0]).toMatch(/^\[helper_cannot_delegate\]/);
    const list = await harness.core.handlers['helper.list']({});
    expect(list.ok && list.value.helpers.map((h) => h.id)).toEqual(['helper-1']);
  });
});
