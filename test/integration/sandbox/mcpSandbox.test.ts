import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { sandboxWorksHere } from '../../support/sandboxProbe';
import { reply, text, toolUse, toolResults, toolResultText } from '../../support/scriptedAnthropic';
import { sendTask, waitFor } from '../agent/scenario';

// An MCP server whose config says "sandbox": true runs inside the folder's OS sandbox, or not at all.

const WRITER = { command: process.execPath, args: [fileURLToPath(new URL('./fixtures/writingMcpServer.mjs', import.meta.url))], sandbox: true };
const escape = join(tmpdir(), `keel-mcp-escape-${process.pid}.txt`);

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  rmSync(escape, { force: true });
});

const works = await sandboxWorksHere('MCP servers in the sandbox');

async function serverState(h: AgentHarness, state: string) {
  return waitFor(() => h.core.mcp.list().servers.find((s) => s.name === 'writer' && s.state === state), `the writer server to be ${state}`, 60_000);
}

describe.runIf(works)('an MCP server that asks for the sandbox', { timeout: 90_000 }, () => {
  it('writes inside the folder, not outside it', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('mcp__writer__write', { path: 'inside.txt', text: 'inside\n' }), toolUse('mcp__writer__write', { path: escape, text: 'escaped\n' })),
        reply(text('Tried both.')),
      ],
      { settingsFromFile: true, settingsFile: { sandbox: 'required', approvalMode: 'full_auto', mcpServers: { writer: WRITER } } },
    );
    await serverState(harness, 'running');
    expect((await sendTask(harness, 'write two files', 60_000)).outcome).toBe('done');
    const [inside, outside] = toolResults(harness.server.requests[1]!).map(toolResultText);
    expect(inside).toContain('wrote inside.txt');
    expect(readFileSync(join(harness.workspace, 'inside.txt'), 'utf8')).toBe('inside\n');
    expect(outside).toMatch(/could not write .*: (EROFS|EACCES|EPERM)/);
    expect(existsSync(escape)).toBe(false);
  });
});

describe('an MCP server that asks for the sandbox where it is off', () => {
  it('is not started unsandboxed, and says why', async () => {
    harness = await startAgentHarness([reply(text('ok'))], { settingsFromFile: true, settingsFile: { sandbox: 'off', mcpServers: { writer: WRITER } } });
    const failed = await serverState(harness, 'failed');
    expect(failed.error).toMatch(/asks to run in the sandbox \("sandbox": true\), and the sandbox is off; it was not started unsandboxed/);
  });
});
