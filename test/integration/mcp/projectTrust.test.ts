import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { ApprovalRequest } from '../../../common/approvals';
import { parseRunArgs } from '../../../main/cli/runArgs';
import { readSettingsFile } from '../../../main/settings/modelSettings';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolUse } from '../../support/scriptedAnthropic';
import { sendTask, waitFor, waitForEvent } from '../agent/scenario';
import { EVERYTHING } from './servers';

const harnesses: AgentHarness[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const projectFile = (workspace: string, servers: object) => writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));

async function start(...args: Parameters<typeof startAgentHarness>): Promise<AgentHarness> {
  const h = await startAgentHarness(...args);
  harnesses.push(h);
  return h;
}

const state = (h: AgentHarness, name: string) => h.core.mcp.list().servers.find((s) => s.name === name)?.state;

describe("a folder's .mcp.json", () => {
  it('starts only after the person trusts it, is trusted once per folder and content, and asks again when the file changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keel-data-'));
    dataDirs.push(dataDir);
    let workspace = '';
    const first = await start([reply(text('No MCP tools here yet.'))], {
      dataDir,
      approvals: 'ask',
      beforeOpen: (ws) => {
        workspace = ws;
        projectFile(ws, { proj: EVERYTHING });
      },
    });
    const before = first.core.mcp.list();
    expect(before.project).toMatchObject({ trusted: false, serverNames: ['proj'] });
    expect(state(first, 'proj')).toBe('untrusted');
    await sendTask(first, 'hello');
    expect((first.server.requests[0]!.body.tools as { name: string }[]).some((t) => t.name.startsWith('mcp__'))).toBe(false);

    const trusted = await first.core.handlers['mcp.trustProject']({ trust: true });
    expect(trusted.ok).toBe(true);
    await waitFor(() => state(first, 'proj') === 'running', 'the project server to run', 60_000);
    await first.core.mcp.dispose();

    // Keel starts again on the same folder: no question this time.
    const second = await start([reply(text('ok'))], { dataDir, approvals: 'ask', beforeOpen: () => {} });
    await second.core.mcp.openWorkspace(workspace);
    expect(second.core.mcp.list().project.trusted).toBe(true);
    await waitFor(() => state(second, 'proj') === 'running', 'the trusted server to start by itself', 60_000);

    // The file changes (another command): it must be trusted again.
    projectFile(workspace, { proj: EVERYTHING, other: { command: 'echo', args: ['hi'] } });
    await second.core.mcp.openWorkspace(workspace);
    expect(second.core.mcp.list().project.trusted).toBe(false);
    expect(second.core.mcp.list().servers.map((s) => [s.name, s.state])).toEqual([
      ['proj', 'untrusted'],
      ['other', 'untrusted'],
    ]);
  });

  it('keel run starts them only with --trust-project-mcp, without remembering the trust', async () => {
    expect(parseRunArgs(['do it']).trustProjectMcp).toBe(false);
    expect(parseRunArgs(['--trust-project-mcp', 'do it']).trustProjectMcp).toBe(true);
    const h = await start([reply(toolUse('mcp__proj__echo', { message: 'headless' })), reply(text('done'))], {
      core: { trustProjectMcp: true },
      beforeOpen: (ws) => projectFile(ws, { proj: EVERYTHING }),
    });
    // Headless: the task waits for the starting server rather than going on without its tools.
    const finished = await sendTask(h, 'echo', 60_000);
    expect(finished.outcome).toBe('done');
    expect(JSON.stringify(h.server.requests[1]!.body.messages.at(-1))).toContain('Echo: headless');
    expect(readSettingsFile(h.dataDir)).toEqual({});
  });

  it('a broken .mcp.json is an error naming the file and key, and the rest of Keel works', async () => {
    const h = await start([reply(text('fine'))], {
      approvals: 'ask',
      beforeOpen: (ws) => projectFile(ws, { good: EVERYTHING, wrong: { type: 'http', url: 'not a url' }, odd: { type: 'carrier-pigeon', command: 'x' } }),
    });
    const list = h.core.mcp.list();
    const errors = list.configErrors.join('\n');
    expect(errors).toContain(`${h.workspace}/.mcp.json: mcpServers.wrong: url`);
    expect(errors).toContain('mcpServers.odd:');
    expect(list.project.serverNames).toEqual(['good']);
    writeFileSync(join(h.workspace, '.mcp.json'), '{ "mcpServers": { oops');
    h.core.mcp.reload();
    expect(h.core.mcp.list().configErrors[0]).toMatch(/\.mcp\.json: is not valid JSON/);
    expect((await sendTask(h, 'hi')).outcome).toBe('done');
  });
});

describe('approving MCP tool calls', () => {
  it('asks with server, tool and arguments; "allow this server for the session" lets its other tools through', async () => {
    const h = await start(
      [reply(toolUse('mcp__everything__echo', { message: 'first' })), reply(toolUse('mcp__everything__get-sum', { a: 1, b: 2 })), reply(text('done'))],
      { approvals: 'auto_edits', settingsFile: { mcpServers: { everything: EVERYTHING } } },
    );
    await waitFor(() => state(h, 'everything') === 'running', 'the server to run', 60_000);
    const sent = await h.core.handlers['task.send']({ text: 'go' });
    if (!sent.ok) throw new Error(sent.error.message);
    const asked = await waitForEvent(h, (e): e is Extract<AgentEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');
    const request: ApprovalRequest = asked.request;
    expect(request.mcp).toEqual({ server: 'everything', tool: 'echo', arguments: JSON.stringify({ message: 'first' }, null, 2) });
    expect(request.sessionRule).toBe('tool:mcp__everything__echo');
    expect(request.serverRule).toBe('mcp:everything');
    await h.core.handlers['approval.respond']({ id: request.id, answer: { decision: 'allow_session', scope: 'server' } });
    await waitForEvent(h, (e): e is AgentEvent => e.type === 'task_finished', 60_000);
    expect(h.events.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
    expect(JSON.stringify(h.server.requests[2]!.body.messages.at(-1))).toContain('3');
    expect([...h.core.currentSession!.approvalRules]).toEqual(['mcp:everything']);

    // The settings' allow list, as the window edits it.
    await h.core.handlers['approval.revoke']({ rule: 'mcp:everything' });
    await h.core.handlers['mcp.setAlwaysAllowed']({ rule: 'tool:mcp__everything__echo', allowed: true });
    expect(readSettingsFile(h.dataDir).mcpAlwaysAllow).toEqual(['tool:mcp__everything__echo']);
    expect(h.core.mcp.list().alwaysAllowed).toEqual(['tool:mcp__everything__echo']);
  });

  it('"always allow" from the card is remembered in settings.json, and the call is not asked again', async () => {
    const h = await start(
      [
        reply(toolUse('mcp__everything__echo', { message: 'a' })),
        reply(text('one')),
        reply(toolUse('mcp__everything__echo', { message: 'b' })),
        reply(text('two')),
      ],
      { approvals: 'ask', settingsFile: { mcpServers: { everything: EVERYTHING } } },
    );
    await waitFor(() => state(h, 'everything') === 'running', 'the server to run', 60_000);
    const sent = await h.core.handlers['task.send']({ text: 'first' });
    if (!sent.ok) throw new Error(sent.error.message);
    const asked = await waitForEvent(h, (e): e is Extract<AgentEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');
    await h.core.handlers['approval.respond']({ id: asked.request.id, answer: { decision: 'allow_session', always: true } });
    await waitForEvent(h, (e): e is AgentEvent => e.type === 'task_finished', 60_000);
    expect(readSettingsFile(h.dataDir).mcpAlwaysAllow).toEqual(['tool:mcp__everything__echo']);
    h.events.length = 0;
    expect((await sendTask(h, 'second', 60_000)).outcome).toBe('done');
    expect(h.events.some((e) => e.type === 'approval_requested')).toBe(false);
  });
});
