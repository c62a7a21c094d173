import type Anthropic from '@anthropic-ai/sdk';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { runToolCall } from '../../../main/agent/toolRunner';
import type { AgentEvent } from '../../../common/agentEvents';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse, type ScriptedRequest } from '../../support/scriptedAnthropic';
import { lastBlocks, sendTask, waitFor, waitForEvent, type TaskFinished } from '../agent/scenario';
import { CRASHING, EVERYTHING, startHttpMcpServer } from './servers';

let harness: AgentHarness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type ToolResultBlock = Anthropic.ToolResultBlockParam;

function toolResults(request: ScriptedRequest): ToolResultBlock[] {
  return lastBlocks(request).filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

function resultText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

async function serverState(h: AgentHarness, name: string, state: string) {
  return waitFor(() => h.core.mcp.list().servers.find((s) => s.name === name && s.state === state), `server ${name} to be ${state}`, 60_000);
}

describe('MCP servers through the agent loop', () => {
  it('server-everything over stdio: the model sees its tools by mcp__ names with their schemas, and gets text, an image and an error back faithfully', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('mcp__everything__echo', { message: 'hello from the model' })),
        reply(
          toolUse('mcp__everything__get-sum', { a: 2, b: 40 }),
          toolUse('mcp__everything__get-tiny-image', {}),
          toolUse('mcp__everything__get-sum', { a: 'two', b: 40 }),
        ),
        reply(text('All three came back.')),
      ],
      { settingsFile: { mcpServers: { everything: EVERYTHING } } },
    );
    await serverState(harness, 'everything', 'running');
    const finished = await sendTask(harness, 'use the everything server', 60_000);
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    const [first, second, third] = harness.server.requests;
    const echo = (first!.body.tools as Anthropic.Tool[]).find((t) => t.name === 'mcp__everything__echo')!;
    expect(echo).toBeDefined();
    expect(echo.input_schema.properties).toHaveProperty('message');
    expect(echo.input_schema.required).toEqual(['message']);
    expect(echo.description).toContain('MCP server "everything"');

    expect(resultText(toolResults(second!)[0]!)).toBe('Echo: hello from the model');

    const [sum, image, bad] = toolResults(third!);
    expect(resultText(sum!)).toContain('42');
    expect(sum!.is_error).toBeUndefined();
    const imageBlocks = (image!.content as { type: string }[]).filter((b) => b.type === 'image') as Anthropic.ImageBlockParam[];
    expect(imageBlocks).toHaveLength(1);
    expect(imageBlocks[0]!.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(
      Buffer.from((imageBlocks[0]!.source as { data: string }).data, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(bad!.is_error).toBe(true);
    expect(resultText(bad!)).toContain('expected number, received string');

    // The chat shows the image by name rather than as base64.
    const shown = harness.events.find(
      (e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.name === 'mcp__everything__get-tiny-image',
    );
    expect(shown!.content).toContain('[image: image/png');
    // Headless (full auto): MCP calls are not asked.
    expect(harness.events.some((e) => e.type === 'approval_requested')).toBe(false);
  });

  it("many calls on one task's signal leave no listener behind on it", async () => {
    harness = await startAgentHarness([], { settingsFile: { mcpServers: { everything: EVERYTHING } } });
    await serverState(harness, 'everything', 'running');
    const tools = await harness.core.mcp.tools();
    const signal = new AbortController().signal;
    for (let i = 0; i < 15; i++) {
      const result = await runToolCall(
        tools,
        { type: 'tool_use', id: `toolu_${i}`, name: 'mcp__everything__echo', input: { message: `n${i}` }, caller: { type: 'direct' } },
        { workspace: harness.workspace, signal },
      );
      expect(result.content).toBe(`Echo: n${i}`);
    }
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('Stop cancels a slow MCP tool at once; the server keeps running and answers the next task', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('mcp__everything__trigger-long-running-operation', { duration: 120, steps: 120 })),
        reply(toolUse('mcp__everything__echo', { message: 'still here' })),
        reply(text('Fine.')),
      ],
      { settingsFile: { mcpServers: { everything: EVERYTHING } } },
    );
    await serverState(harness, 'everything', 'running');
    const sent = await harness.core.handlers['task.send']({ text: 'run the long one' });
    if (!sent.ok) throw new Error(sent.error.message);
    await waitForEvent(harness, (e): e is AgentEvent => e.type === 'tool_call');
    await waitFor(() => harness!.core.currentAgent!.state === 'running_tool', 'the tool to run');
    await harness.core.handlers['task.stop']({});
    const finished = await waitForEvent(harness, (e): e is TaskFinished => e.type === 'task_finished', 20_000);
    expect(finished.outcome).toBe('cancelled');
    const result = harness.events.find((e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result')!;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Cancelled');

    expect(harness.core.mcp.list().servers[0]!.state).toBe('running');
    const next = await sendTask(harness, 'is it still there?', 60_000);
    expect(next.outcome).toBe('done');
    expect(resultText(toolResults(harness.server.requests.at(-1)!)[0]!)).toBe('Echo: still here');
  });

  it('a Streamable HTTP server on loopback, with its headers sent', async () => {
    const http = await startHttpMcpServer('secret-token');
    cleanups.push(() => http.close());
    harness = await startAgentHarness([reply(toolUse('mcp__web__greet', { name: 'Ada' })), reply(text('Greeted.'))], {
      settingsFile: { mcpServers: { web: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${KEEL_TEST_MCP_TOKEN:-secret-token}' } } } },
    });
    await serverState(harness, 'web', 'running');
    expect(harness.core.mcp.list().servers[0]!.tools.map((t) => t.modelName)).toEqual(['mcp__web__greet']);
    const finished = await sendTask(harness, 'greet Ada', 60_000);
    expect(finished.outcome).toBe('done');
    const [greet] = toolResults(harness.server.requests[1]!);
    expect(greet!.is_error).toBeUndefined();
    expect(resultText(greet!)).toBe('Hello, Ada, over HTTP.');
    expect(http.calls).toEqual(['Ada']);
  });

  it('a server that crashes mid-call: the model gets an error with the stderr tail, the window sees it failed, and the next call restarts it', async () => {
    harness = await startAgentHarness([reply(toolUse('mcp__crashy__crash', {})), reply(toolUse('mcp__crashy__ping', {})), reply(text('Recovered.'))], {
      settingsFile: { mcpServers: { crashy: CRASHING } },
    });
    await serverState(harness, 'crashy', 'running');
    const firstPid = /pid (\d+)/.exec(harness.core.mcp.list().servers[0]!.stderrTail ?? '')?.[1];
    const finished = await sendTask(harness, 'crash it, then ping', 60_000);
    expect(finished.outcome).toBe('done');
    expect(harness.server.errors).toEqual([]);

    const [crash] = toolResults(harness.server.requests[1]!);
    expect(crash!.is_error).toBe(true);
    expect(resultText(crash!)).toContain('closed the connection');
    expect(resultText(crash!)).toContain('fatal: the crash tool was called');
    const failed = harness.events.some((e) => e.type === 'tool_result' && e.isError);
    expect(failed).toBe(true);

    const [ping] = toolResults(harness.server.requests[2]!);
    expect(ping!.is_error).toBeUndefined();
    expect(resultText(ping!)).toMatch(/^pong from \d+$/);
    expect(resultText(ping!)).not.toBe(`pong from ${firstPid}`);
    expect(harness.core.mcp.list().servers[0]!.state).toBe('running');
  });

  it("closing the workspace stops a server's whole process tree, a wrapper shell's children too", async () => {
    harness = await startAgentHarness([], {
      settingsFile: { mcpServers: { wrapped: { command: '/bin/sh', args: ['-c', `"${CRASHING.command}" "${CRASHING.args[0]}"; echo after`] } } },
    });
    const running = await serverState(harness, 'wrapped', 'running');
    const pid = Number(/pid (\d+)/.exec(running.stderrTail ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    await harness.core.mcp.dispose();
    await waitFor(() => !alive(pid), 'the server behind the shell to be gone', 10_000);
  });

  it('servers that cannot start or never answer are shown failed with their stderr, and the task goes on without them', async () => {
    harness = await startAgentHarness([reply(text('Nothing to call.'))], {
      settingsFile: {
        mcpServers: {
          broken: { command: process.execPath, args: ['-e', "console.error('error: DATABASE_URL is not set'); process.exit(2)"] },
          silent: { command: process.execPath, args: ['-e', "console.error('waiting forever'); setInterval(() => {}, 1000)"] },
          missing: { command: 'keel-no-such-mcp-server' },
          bad: { command: '' },
        },
      },
      core: { mcpStartTimeoutMs: 3000 },
    });
    const broken = await serverState(harness, 'broken', 'failed');
    expect(broken.stderrTail).toContain('DATABASE_URL is not set');
    const silent = await serverState(harness, 'silent', 'failed');
    expect(silent.error).toContain('did not answer within 3 s');
    expect(silent.stderrTail).toContain('waiting forever');
    const missing = await serverState(harness, 'missing', 'failed');
    expect(missing.error).toMatch(/keel-no-such-mcp-server/);
    expect(harness.core.mcp.list().configErrors.join('\n')).toMatch(/settings\.json: mcpServers\.bad: command/);

    const finished = await sendTask(harness, 'hello', 30_000);
    expect(finished.outcome).toBe('done');
    expect((harness.server.requests[0]!.body.tools as Anthropic.Tool[]).some((t) => t.name.startsWith('mcp__'))).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
