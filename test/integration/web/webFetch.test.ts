import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webFetchTool } from '../../../main/tools/web/webFetch';
import type { AgentTool } from '../../../main/agent/toolRunner';
import { startAgentHarness, type AgentHarness } from '../../support/agentHarness';
import { reply, text, toolResults, toolResultText, toolUse } from '../../support/scriptedAnthropic';
import { sendTask } from '../agent/scenario';

// web_fetch through the real agent loop: the scripted model asks for pages of a local site, and
// what comes back in the tool results is what the model would read. Loopback is reached only
// because the settings list 127.0.0.1, as a person would.

const PAGE = `<!doctype html>
<html><head><title>Widget docs &amp; guide</title>
<style>.hero { color: rebeccapurple }</style>
<script>window.trackingSecret = "do-not-show";</script>
</head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing menu</a></nav>
<div role="navigation">Breadcrumb trail</div>
<main>
<h1>Installing widgets</h1>
<p>Run the installer with <em>care</em> and read <strong>every</strong> prompt; see <a href="/guide?step=2">the guide</a>.</p>
<h2>Steps</h2>
<ul><li>Download</li><li>Unpack</li></ul>
<pre><code class="language-sh">widget install --all</code></pre>
<p><img src="/pic.png" alt="A widget"> <img src="data:image/png;base64,AAAA" alt="inline"></p>
</main>
<script>document.write("late script text")</script>
</body></html>`;

const hits = new Map<string, number>();
let site: Server;
let base: string;
let port: number;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (path === '/gzip') return res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(PAGE));
    if (path === '/data.json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"widget","tags":["a","b"]}');
    if (path === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    if (path === '/moved') return res.writeHead(301, { location: '/page' }).end();
    if (path === '/to-other-loopback') return res.writeHead(302, { location: `http://127.0.0.2:${port}/page` }).end();
    if (path === '/to-private') return res.writeHead(307, { location: 'http://10.11.12.13/admin' }).end();
    if (path === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'line of text\n'.repeat(20_000)}`);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('No such page here.');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  hits.clear();
});

/** One task whose single round calls web_fetch on each URL; returns each result's text and error flag. */
async function fetchAll(urls: string[], allow: string[] = ['127.0.0.1']): Promise<{ text: string; isError: boolean }[]> {
  harness = await startAgentHarness([reply(...urls.map((url) => toolUse('web_fetch', { url }))), reply(text('Read them.'))], {
    tools: [webFetchTool as AgentTool],
    settingsFile: { network: { allow } },
  });
  const finished = await sendTask(harness, 'read these pages');
  expect(finished.outcome).toBe('done');
  expect(harness.server.errors).toEqual([]);
  return toolResults(harness.server.requests[1]!).map((r) => ({ text: toolResultText(r), isError: r.is_error === true }));
}

describe('web_fetch', () => {
  it('returns a served HTML page as Markdown: title first, headings, emphasis, links kept; no markup, style or script', async () => {
    const [page, zipped] = await fetchAll([`${base}/page`, `${base}/gzip`]);
    expect(page!.isError).toBe(false);
    const lines = page!.text.split('\n');
    expect(lines[0]).toBe('Title: Widget docs & guide');
    expect(lines[1]).toBe(`URL: ${base}/page`);
    for (const kept of [
      '# Installing widgets',
      '## Steps',
      'Run the installer with *care* and read **every** prompt',
      `[the guide](${base}/guide?step=2)`,
      '- Download',
      '```sh\nwidget install --all\n```',
      `![A widget](${base}/pic.png)`,
    ]) {
      expect(page!.text).toContain(kept);
    }
    for (const dropped of ['<', 'rebeccapurple', 'trackingSecret', 'late script', 'Pricing menu', 'Breadcrumb', 'base64'])
      expect(page!.text).not.toContain(dropped);
    expect(zipped!.text).toContain('# Installing widgets');
    // One request per call: no probe before, no retry after.
    expect(hits.get('/page')).toBe(1);
    expect(hits.get('/gzip')).toBe(1);
  });

  it('gives JSON as it is, refuses binary, says the HTTP status, and names the final URL after a redirect', async () => {
    const [json, picture, missing, moved] = await fetchAll([`${base}/data.json`, `${base}/pic.png`, `${base}/nothing`, `${base}/moved`]);
    expect(json).toEqual({ isError: false, text: `URL: ${base}/data.json\nContent-Type: application/json\n\n{"name":"widget","tags":["a","b"]}` });
    expect(picture!.isError).toBe(true);
    expect(picture!.text).toContain('image/png');
    expect(picture!.text).toContain('not text');
    expect(missing!.isError).toBe(true);
    expect(missing!.text).toContain(`HTTP 404 Not Found from ${base}/nothing`);
    expect(missing!.text).toContain('No such page here.');
    expect(moved!.isError).toBe(false);
    expect(moved!.text).toContain(`URL: ${base}/page\n(Redirected from ${base}/moved.)`);
    expect(hits.get('/page')).toBe(1);
  });

  it('refuses a redirect to an address nobody listed, and a private address, naming the host', async () => {
    const [otherLoopback, toPrivate, privateDirect] = await fetchAll([`${base}/to-other-loopback`, `${base}/to-private`, 'http://192.168.77.1/router']);
    expect(otherLoopback!.isError).toBe(true);
    expect(otherLoopback!.text).toContain(`The page redirected to http://127.0.0.2:${port}/page`);
    expect(otherLoopback!.text).toContain('Keel did not connect to 127.0.0.2');
    expect(otherLoopback!.text).toContain('KEEL_NETWORK_ALLOW');
    expect(toPrivate!.text).toContain('Keel did not connect to 10.11.12.13: it is a private network address');
    expect(privateDirect!.text).toContain('Keel did not connect to 192.168.77.1');
    // The redirect was not followed: the page was never asked for.
    expect(hits.get('/page')).toBeUndefined();
  });

  it('reaches nothing on this machine when loopback is not listed, whatever the name', async () => {
    const [byAddress, byName] = await fetchAll([`${base}/page`, `http://localhost:${port}/page`], []);
    expect(byAddress!.text).toContain('Keel did not connect to 127.0.0.1: it is an address on this machine (loopback)');
    expect(byName!.text).toContain('Keel did not connect to localhost');
    expect(hits.size).toBe(0);
  });

  it('caps a long page like read_file and says so; says a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const [big, refused] = await fetchAll([`${base}/big`, `http://127.0.0.1:${closedPort}/`]);
    expect(big!.isError).toBe(false);
    expect(Buffer.byteLength(big!.text)).toBeLessThan(100 * 1024 + 400);
    expect(big!.text).toMatch(/\(The page was cut: this is the first [\d.]+ KB of [\d.]+ KB\./);
    expect(refused!.isError).toBe(true);
    expect(refused!.text).toContain('the connection was refused');
  });
});
