import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { lastBlocks, sendTask, waitFor } from '../agent/scenario';
import { startSseMcpServer } from './sseServer';

/*
 * A server on MCP's older HTTP+SSE transport (`"type": "sse"`), as many hosted servers still are:
 * its tools reach the model, the headers from the settings go with the event stream and the posts,
 * and a call comes back through the stream. The SDK's own SSE server on loopback, the real SDK
 * client in the core, the scripted model through the real Anthropic SDK.
 */

let harness: AgentHarness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('an MCP server over SSE', () => {
  it('lists its tools, sends the configured headers, and answers a call the model makes', async () => {
    const sse = await startSseMcpServer('sse-token');
    cleanups.push(() => sse.close());
    harness = await startAgentHarness([reply(toolUse('mcp__legacy__shout', { word: 'hello' })), reply(text('Shouted.'))], {
      settingsFile: { mcpServers: { legacy: { type: 'sse', url: sse.url, headers: { Authorization: 'Bearer sse-token' } } } },
    });
    const h = harness;
    await waitFor(() => h.core.mcp.list().servers.find((server) => server.name === 'legacy' && server.state === 'running'), 'the SSE server to run', 60_000);
    expect(h.core.mcp.list().servers[0]!.tools.map((tool) => tool.modelName)).toEqual(['mcp__legacy__shout']);

    const finished = await sendTask(h, 'shout hello', 60_000);
    expect(finished.outcome).toBe('done');
    const [result] = lastBlocks(h.server.requests[1]!).filter((block): block is Anthropic.ToolResultBlockParam => block.type === 'tool_result');
    expect(result!.is_error).toBeUndefined();
    expect(JSON.stringify(result!.content)).toContain('HELLO! (over SSE)');
    expect(sse.calls).toEqual(['hello']);
    expect(sse.streams()).toBe(1);
  });
});
