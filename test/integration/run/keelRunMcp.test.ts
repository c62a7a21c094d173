import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startScriptedAnthropic, text, toolResults, toolResultText, toolUse, type ScriptedAnthropic, type Step } from '../../support/scriptedAnthropic';
import { EVERYTHING } from '../mcp/servers';

// `keel run` with MCP servers, as a script runs it: `node bin/keel.js run …` on the built out/,
// with a user server in settings.json and a project server in the folder's .mcp.json.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-run-mcp-1122334455';

let tmp = '';
const servers: ScriptedAnthropic[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'out/main/cli.js'))) execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
}, 300_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function run(script: Step[], flags: string[]): Promise<{ code: number | null; stderr: string; server: ScriptedAnthropic; home: string }> {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-mcp-')));
  const home = join(tmp, 'home');
  const workspace = join(tmp, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { mine: EVERYTHING } }));
  writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { proj: EVERYTHING } }));
  const server = await startScriptedAnthropic({ script, apiKey: KEY });
  servers.push(server);
  const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL };
  for (const name of ['ANTHROPIC_MODEL', 'KEEL_MODEL']) delete env[name];
  const child = spawn(process.execPath, [bin, 'run', '--workspace', workspace, ...flags, 'use the servers'], {
    cwd: tmp,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr, server, home };
}

const toolNames = (server: ScriptedAnthropic) => (server.requests[0]!.body.tools as { name: string }[]).map((t) => t.name).filter((n) => n.startsWith('mcp__'));

describe('keel run with MCP servers', { timeout: 120_000 }, () => {
  it("starts the user's servers and not the folder's", async () => {
    const { code, stderr, server } = await run([reply(toolUse('mcp__mine__echo', { message: 'from keel run' })), reply(text('Done.'))], []);
    expect(code, stderr).toBe(0);
    expect(toolNames(server)).toContain('mcp__mine__echo');
    expect(toolNames(server).some((n) => n.startsWith('mcp__proj__'))).toBe(false);
    expect(toolResults(server.requests[1]!).map(toolResultText)).toEqual(['Echo: from keel run']);
  });

  it("--trust-project-mcp starts the folder's servers too, for that run only", async () => {
    const { code, stderr, server, home } = await run(
      [reply(toolUse('mcp__proj__echo', { message: 'project server' })), reply(text('Done.'))],
      ['--trust-project-mcp'],
    );
    expect(code, stderr).toBe(0);
    expect(toolNames(server)).toEqual(expect.arrayContaining(['mcp__mine__echo', 'mcp__proj__echo']));
    expect(toolResults(server.requests[1]!).map(toolResultText)).toEqual(['Echo: project server']);
    expect(existsSync(join(home, 'mcp-trust.json'))).toBe(false);
  });
});
