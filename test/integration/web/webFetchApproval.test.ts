import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../common/agentEvents';
import type { ApprovalDecision } from '../../../common/approvals';
import type { AgentTool } from '../../../main/agent/toolRunner';
import type { Resolver } from '../../../main/network/networkPolicy';
import { webFetchTool } from '../../../main/tools/web/webFetch';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse } from '../../support/scriptedAnthropic';
import { waitForEvent, type TaskFinished } from '../agent/scenario';

// web_fetch in Ask first: a new host asks, and the answer decides what later calls do. The names
// resolve to this machine's loopback (the settings list 127.0.0.1, so the local site is reachable
// once a host is allowed); the approval is about the host name, which nobody listed.

let site: Server;
let port: number;
const hits: string[] = [];
beforeAll(async () => {
  site = createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Docs</title><h1>Hello from the docs</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const resolveHost: Resolver = async (host) => {
  if (host === 'docs.example.com' || host === 'api.example.com') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  hits.length = 0;
});

type Requested = Extract<AgentEvent, { type: 'approval_requested' }>;

async function answerNext(h: AgentHarness, seen: number, decision: ApprovalDecision): Promise<Requested> {
  const card = await waitForEvent(
    h,
    (e): e is Requested => e.type === 'approval_requested' && h.events.filter((x) => x.type === 'approval_requested').indexOf(e) === seen,
  );
  const answered = await h.core.handlers['approval.respond']({ id: card.request.id, answer: decision });
  expect(answered.ok && answered.value.answered).toBe(true);
  return card;
}

describe('web_fetch in Ask first', () => {
  it('asks for a new host; "allow for this session" lets the next page of that host through, another host asks again', async () => {
    const url = (host: string, path: string) => `http://${host}:${port}${path}`;
    harness = await startAgentHarness(
      [
        reply(toolUse('web_fetch', { url: url('docs.example.com', '/one') })),
        reply(toolUse('web_fetch', { url: url('docs.example.com', '/two') }), toolUse('web_fetch', { url: url('api.example.com', '/x') })),
        reply(text('Done reading.')),
      ],
      { tools: [webFetchTool as AgentTool], approvals: 'ask', settingsFile: { network: { allow: ['127.0.0.1'] } }, core: { resolveHost } },
    );
    const sent = await harness.core.handlers['task.send']({ text: 'read the docs' });
    if (!sent.ok) throw new Error(sent.error.message);
    const first = await answerNext(harness, 0, { decision: 'allow_session' });
    expect(first.request).toMatchObject({
      tool: 'web_fetch',
      sessionRule: 'network:docs.example.com',
      network: { host: 'docs.example.com', url: url('docs.example.com', '/one') },
    });
    // The second host asks; the first does not ask again.
    const second = await answerNext(harness, 1, { decision: 'deny' });
    expect(second.request.network?.host).toBe('api.example.com');
    const finished = await waitForEvent(harness, (e): e is TaskFinished => e.type === 'task_finished');
    expect(finished.outcome).toBe('done');
    expect(harness.events.filter((e) => e.type === 'approval_requested')).toHaveLength(2);
    expect(toolResultText(toolResults(harness.server.requests[1]!)[0]!)).toContain('# Hello from the docs');
    const [two, denied] = toolResults(harness.server.requests[2]!);
    expect(toolResultText(two!)).toContain(`URL: ${url('docs.example.com', '/two')}`);
    expect(denied!.is_error).toBe(true);
    expect(hits).toEqual([`docs.example.com:${port} /one`, `docs.example.com:${port} /two`]);
    expect(harness.core.currentSession!.approvalRules.has('network:docs.example.com')).toBe(true);
  });

  it('"always" keeps the host in the settings; a listed host and a private address are not asked about', async () => {
    harness = await startAgentHarness(
      [
        reply(toolUse('web_fetch', { url: `http://api.example.com:${port}/a` })),
        reply(toolUse('web_fetch', { url: `http://api.example.com:${port}/b` }), toolUse('web_fetch', { url: 'http://10.9.8.7/' })),
        reply(text('Done.')),
      ],
      { tools: [webFetchTool as AgentTool], approvals: 'ask', settingsFile: { network: { allow: ['127.0.0.1'] } }, core: { resolveHost } },
    );
    const sent = await harness.core.handlers['task.send']({ text: 'read' });
    if (!sent.ok) throw new Error(sent.error.message);
    await answerNext(harness, 0, { decision: 'allow_session', always: true });
    await waitForEvent(harness, (e): e is TaskFinished => e.type === 'task_finished');
    expect(harness.events.filter((e) => e.type === 'approval_requested')).toHaveLength(1);
    const settings = JSON.parse(readFileSync(join(harness.dataDir, 'settings.json'), 'utf8')) as { network: { allow: string[] } };
    expect(settings.network.allow).toEqual(['127.0.0.1', 'api.example.com']);
    const [b, privateOne] = toolResults(harness.server.requests[2]!);
    expect(toolResultText(b!)).toContain('# Hello from the docs');
    expect(toolResultText(privateOne!)).toContain('Keel did not connect to 10.9.8.7');
  });
});
