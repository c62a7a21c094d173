import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startAgentHarness, TEST_API_KEY, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse } from '../../support/scriptedAnthropic';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('a planned task, end to end through the real SDK', () => {
  it('writes the plan, works through it, and finishes done with the model reading back the stored plan', async () => {
    harness = await startAgentHarness([
      reply(
        text('I will plan this.'),
        toolUse('todo', {
          items: [
            { content: 'Read the existing code', status: 'in_progress', activeForm: 'reading the code' },
            { content: 'Write hello.py', status: 'pending' },
            { content: 'Run it and check the output', status: 'pending' },
          ],
        }),
      ),
      reply(
        toolUse('todo', {
          items: [
            { content: 'Read the existing code', status: 'completed' },
            { content: 'Write hello.py', status: 'completed' },
            { content: 'Run it and check the output', status: 'completed' },
          ],
        }),
      ),
      reply(text('All done.')),
    ]);
    const result = await harness.core.currentAgent!.runTask('write hello.py');
    expect(result.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    const second = harness.server.requests[1]!;
    const [first] = toolResults(second);
    expect(toolResultText(first!)).toBe(
      '[>] #1 Read the existing code (reading the code)\n[ ] #2 Write hello.py\n[ ] #3 Run it and check the output\n\n(0/3 completed)',
    );
    const plan = harness.core.currentSession!.plan;
    expect(plan.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
    expect(plan.current?.source).toBe('agent');

    const transcript = readFileSync(harness.core.currentSession!.transcriptPath, 'utf8');
    expect(transcript).toContain('"type":"message"');
    expect(transcript).not.toContain(TEST_API_KEY);
    expect(harness.events.at(-1)).toMatchObject({ type: 'task_finished', outcome: 'done' });
  });
});
