import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM_MARK } from '../../../main/agent/compaction/summaryRequest';
import { reply, startScriptedAnthropic, systemText, text, toolUse, type ScriptedAnthropic } from '../../support/scriptedAnthropic';

// The reproduction: a service that takes 30,000 tokens, and four reads of a 700-line
// file. Before, `keel run` exited 1 with "prompt is too long"; now it makes room and finishes.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-run-compaction-42';
const LIMIT = 30_000;

let tmp: string;
const servers: ScriptedAnthropic[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'out/main/cli.js'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  }
}, 300_000);

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function fourReads(): Promise<{ server: ScriptedAnthropic; workspace: string; home: string }> {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-room-')));
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  const lines = Array.from({ length: 700 }, (_, i) => `const value${i} = computeSomethingRatherLong(${i}, "a string literal of some length");`);
  for (const name of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) writeFileSync(join(workspace, name), `${lines.join('\n')}\n`);
  const server = await startScriptedAnthropic({
    apiKey: KEY,
    contextLimit: LIMIT,
    sideAnswer: (request) => (systemText(request).startsWith(SUMMARY_SYSTEM_MARK) ? reply('Read a.ts, b.ts and c.ts; d.ts is next.') : undefined),
    script: [
      reply(toolUse('read_file', { path: 'a.ts' })),
      reply(toolUse('read_file', { path: 'b.ts' })),
      reply(toolUse('read_file', { path: 'c.ts' })),
      reply(toolUse('read_file', { path: 'd.ts' })),
      reply(text('Read all four files.')),
    ],
  });
  servers.push(server);
  return { server, workspace, home: join(tmp, 'home') };
}

function run(
  args: string[],
  server: ScriptedAnthropic,
  home: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL, ...env };
  for (const name of ['ANTHROPIC_MODEL', 'KEEL_MODEL', ...(env.KEEL_CONTEXT_WINDOW ? [] : ['KEEL_CONTEXT_WINDOW'])]) delete childEnv[name];
  const child = spawn(process.execPath, [bin, 'run', ...args], { cwd: tmp, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('keel run on a long task', { timeout: 120_000 }, () => {
  it('with KEEL_CONTEXT_WINDOW set, makes room before the service refuses and emits a compaction event with --json', async () => {
    const { server, workspace, home } = await fourReads();
    const { code, stdout, stderr } = await run(['--json', '--workspace', workspace, 'read the four files'], server, home, {
      KEEL_CONTEXT_WINDOW: String(LIMIT),
    });
    expect(code, stderr).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ reason: 'threshold' });
    expect(typeof compactions[0]!.beforeTokens).toBe('number');
    expect(events.at(-1)).toMatchObject({ type: 'result', outcome: 'done' });
    expect(server.requests.every((r) => r.rejected === undefined)).toBe(true);
    expect(server.errors).toEqual([]);
  });

  it('without it, recovers from the refusal, says "made room" and exits 0', async () => {
    const { server, workspace, home } = await fourReads();
    const { code, stdout, stderr } = await run(['--workspace', workspace, 'read the four files'], server, home);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/\[keel: made room: (cleared|summarised) .*tokens\)\]/);
    expect(stdout).toContain('Read all four files.');
    expect(server.requests.filter((r) => r.rejected).length).toBe(1);
    expect(server.errors).toEqual([]);
  });
});
