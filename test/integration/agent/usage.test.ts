import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import { WorkspaceSession } from '../../../main/session/workspaceSession';
import { noopTool, startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { allBlocks, items, sendTask } from './scenario';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type UsageEvent = Extract<AgentEvent, { type: 'usage' }>;

const rounds = [
  { input_tokens: 120, output_tokens: 40, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 },
  { input_tokens: 30, output_tokens: 12, cache_creation_input_tokens: 150, cache_read_input_tokens: 2000 },
  { input_tokens: 25, output_tokens: 8, cache_creation_input_tokens: 60, cache_read_input_tokens: 2150 },
];

const asKeel = (u: (typeof rounds)[number]) => ({
  inputTokens: u.input_tokens,
  outputTokens: u.output_tokens,
  cacheCreationTokens: u.cache_creation_input_tokens,
  cacheReadTokens: u.cache_read_input_tokens,
});

/** Every cache_control breakpoint of a request, by where it sits. */
function breakpoints(request: ScriptedRequest): string[] {
  const found: string[] = [];
  const system = request.body.system;
  if (Array.isArray(system)) system.forEach((b, i) => b.cache_control && found.push(`system.${i}`));
  request.body.tools?.forEach((t, i) => 'cache_control' in t && t.cache_control && found.push(`tools.${i}`));
  request.body.messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    m.content.forEach((b, j) => 'cache_control' in b && b.cache_control && found.push(`messages.${i}.${j}`));
  });
  return found;
}

describe('token usage and prompt caching', () => {
  it('reports each round with its cache reads and writes, and session totals that add up, across tasks and a reload', async () => {
    harness = await startAgentHarness(
      [
        { ...reply(toolUse('todo', { items: items(['Say hello', 'in_progress']) })), usage: rounds[0] },
        { ...reply(toolUse('todo', { items: items(['Say hello', 'completed']) })), usage: rounds[1] },
        { ...reply(text('Hello.')), usage: rounds[2] },
      ],
      { tools: [noopTool] },
    );
    expect((await sendTask(harness, 'say hello')).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    const usage = harness.events.filter((e): e is UsageEvent => e.type === 'usage');
    expect(usage.map((e) => e.round)).toEqual(rounds.map(asKeel));
    let total = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
    usage.forEach((event, i) => {
      const round = asKeel(rounds[i]!);
      total = {
        inputTokens: total.inputTokens + round.inputTokens,
        outputTokens: total.outputTokens + round.outputTokens,
        cacheReadTokens: total.cacheReadTokens + round.cacheReadTokens,
        cacheCreationTokens: total.cacheCreationTokens + round.cacheCreationTokens,
      };
      expect(event.session).toEqual(total);
    });
    expect(total).toEqual({ inputTokens: 175, outputTokens: 60, cacheReadTokens: 4150, cacheCreationTokens: 2210 });

    // The totals are kept with the session.
    const session = harness.core.currentSession!;
    expect(WorkspaceSession.open(harness.dataDir, harness.workspace, { sessionId: session.id }).usage).toEqual(total);

    // A second task adds to the same totals.
    harness.server.push({ ...reply(text('Again.')), usage: rounds[0] });
    expect((await sendTask(harness, 'again')).outcome).toBe('done');
    const last = harness.events.filter((e): e is UsageEvent => e.type === 'usage').at(-1)!;
    expect(last.session.cacheCreationTokens).toBe(total.cacheCreationTokens + rounds[0]!.cache_creation_input_tokens);
    expect(last.session.inputTokens).toBe(total.inputTokens + rounds[0]!.input_tokens);
  });

  it('marks the system prompt, the last tool and the end of the conversation for caching, and never stores the marks', async () => {
    harness = await startAgentHarness([reply(toolUse('noop', {})), reply(toolUse('noop', {})), reply(text('Done.'))], { tools: [noopTool] });
    expect((await sendTask(harness, 'look around')).outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    for (const request of harness.server.requests) {
      const toolCount = request.body.tools!.length;
      const messageCount = request.body.messages.length;
      const lastBlocks = request.body.messages.at(-1)!.content;
      const lastIndex = typeof lastBlocks === 'string' ? 0 : lastBlocks.length - 1;
      // Exactly three breakpoints (the API allows four): system, last tool, last block of the last message.
      expect(breakpoints(request)).toEqual(['system.0', `tools.${toolCount - 1}`, `messages.${messageCount - 1}.${lastIndex}`]);
    }
    // After a tool round the breakpoint sits on the tool_result that ends the conversation.
    const afterTool = harness.server.requests[1]!;
    const end = allBlocks(afterTool).at(-1)!.block;
    expect(end.type).toBe('tool_result');
    expect(end).toMatchObject({ cache_control: { type: 'ephemeral' } });

    const session = harness.core.currentSession!;
    expect(JSON.stringify(session.messages)).not.toContain('cache_control');
    expect(readFileSync(session.transcriptPath, 'utf8')).not.toContain('cache_control');
  });
});
