import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlanSnapshot } from '../../../common/contract';
import type { PlanItem } from '../../../common/plan/types';
import type { Result } from '../../../common/result';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { dispatchRequest } from '../../../main/api/dispatch';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { sendTask, taggedBlocks, toolResultsLead } from './scenario';

// The person changes what waits for what on the board while the agent works: the same validator
// judges it, and the model is told the dependency change before its next request.

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const plan = [
  { id: 'parse', content: 'Parse the input', status: 'in_progress' },
  { id: 'tests', content: 'Write the tests', status: 'pending' },
  { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['tests'] },
];

/** `plan.edit` as the board sends it: the whole list, against the version the person saw. */
async function boardEdit(h: AgentHarness, change: (items: PlanItem[]) => PlanItem[]): Promise<Result<PlanSnapshot>> {
  const current = await dispatchRequest(h.core.handlers, 'plan.get', {});
  if (!current.ok) throw new Error(current.error.message);
  const snapshot = current.value as PlanSnapshot;
  return (await dispatchRequest(h.core.handlers, 'plan.edit', {
    baseVersion: snapshot.version,
    items: change(structuredClone(snapshot.items)),
  })) as Result<PlanSnapshot>;
}

const waitsFor = (id: string, on: string) => (items: PlanItem[]) =>
  items.map((item) => (item.id === id ? { ...item, blockedBy: [...(item.blockedBy ?? []), on] } : item));

describe('the person edits the graph mid-task', () => {
  it('a dependency the person adds reaches the model in its next request; one that closes a cycle is refused and told to no one', async () => {
    const edits: Result<PlanSnapshot>[] = [];
    const slow: AgentTool = {
      name: 'slow',
      description: 'Takes a while.',
      inputSchema: z.object({}).passthrough(),
      async run() {
        // #tests now waits for #parse; then #parse waiting for #docs would close #parse → #docs → #tests → #parse.
        edits.push(await boardEdit(harness!, waitsFor('tests', 'parse')));
        edits.push(await boardEdit(harness!, waitsFor('parse', 'docs')));
        return { content: 'slow work done', isError: false };
      },
    };
    harness = await startAgentHarness(
      [
        reply(toolUse('todo', { items: plan })),
        reply(toolUse('slow', {})),
        reply(toolUse('todo', { items: plan.map((item) => ({ id: item.id, content: item.content, status: 'completed' })) })),
        reply(text('All three done.')),
      ],
      { tools: [slow] },
    );
    const finished = await sendTask(harness, 'parse, test, document');
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    expect(edits[0]!.ok).toBe(true);
    const refused = edits[1]!;
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('plan_invalid');
    expect(refused.error.message).toContain('#parse → #docs → #tests → #parse');
    expect(refused.error.details).toEqual({
      problems: expect.arrayContaining([
        expect.objectContaining({ index: 0, code: 'dependency_cycle', params: expect.objectContaining({ cycle: '#parse → #docs → #tests → #parse' }) }),
      ]),
    });

    const afterEdit = harness.server.requests[2]!;
    expect(toolResultsLead(afterEdit)).toBe(true);
    const updates = taggedBlocks(afterEdit, '<plan-update source="user">');
    expect(updates).toHaveLength(1);
    expect(updates[0]!.text).toContain('- "Write the tests" (#tests) now waits for #parse');
    expect(updates[0]!.text).toContain('[ ] #tests Write the tests (blocked by #parse)');
    expect(updates[0]!.text).not.toContain('#docs → ');
    // The model's whole-list write left blockedBy out: the person's dependency stayed.
    const stored = harness.core.currentSession!.plan;
    expect(stored.items.find((item) => item.id === 'tests')?.blockedBy).toEqual(['parse']);
    expect(stored.history.map((version) => version.source)).toEqual(['agent', 'user', 'agent']);
  });
});
