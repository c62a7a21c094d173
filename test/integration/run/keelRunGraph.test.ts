import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startScriptedAnthropic, text, toolResults, toolResultText, toolUse, type ScriptedAnthropic } from '../../support/scriptedAnthropic';

// A plan graph written by the model in `keel run` (the real SDK against the scripted server):
// items that name each other by ids the model chose, refusals that name the items, steps forward.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-run-graph-2424';

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

function run(args: string[], server: ScriptedAnthropic, home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL };
  for (const name of ['ANTHROPIC_MODEL', 'KEEL_MODEL']) delete env[name];
  const child = spawn(process.execPath, [bin, 'run', ...args], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const parse = { id: 'parse', content: 'Parse the input', status: 'pending' };
const tests = { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] };
const docs = { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['parse', 'tests'] };

describe('keel run: a plan graph', { timeout: 120_000 }, () => {
  it('stores and shows the graph with #ids, refuses a blocked start, a cycle and an unknown id naming the items, accepts steps forward', async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-graph-')));
    const workspace = join(tmp, 'ws');
    const home = join(tmp, 'home');
    mkdirSync(workspace);
    const server = await startScriptedAnthropic({
      apiKey: KEY,
      script: [
        reply(text('Planning.'), toolUse('todo', { items: [parse, tests, docs] })),
        // Starting #tests while #parse, which it waits for, is pending.
        reply(toolUse('todo', { items: [parse, { ...tests, status: 'in_progress' }, docs] })),
        // #parse waits for #docs, #docs for #tests, #tests for #parse.
        reply(toolUse('todo', { items: [{ ...parse, blockedBy: ['docs'] }, tests, { ...docs, blockedBy: ['tests'] }] })),
        // #docs waits for an item that is not in the plan.
        reply(toolUse('todo', { items: [parse, tests, { ...docs, blockedBy: ['tests', 'lint'] }] })),
        // A step forward: #parse done, #tests started; the model leaves blockedBy out, so each item keeps it.
        reply(
          toolUse('todo', {
            items: [
              { id: 'parse', content: 'Parse the input', status: 'completed' },
              { id: 'tests', content: 'Write the tests', status: 'in_progress' },
              { id: 'docs', content: 'Write the docs' },
            ],
          }),
        ),
        reply(toolUse('todo', { items: [parse, tests, docs].map((item) => ({ id: item.id, content: item.content, status: 'completed' })) })),
        reply(text('Parsed, tested and documented.')),
      ],
    });
    servers.push(server);

    const { code, stdout, stderr } = await run(['--workspace', workspace, 'parse, test and document'], server, home);
    expect(code, stderr).toBe(0);
    expect(server.errors).toEqual([]);
    expect(server.remaining).toBe(0);
    const answer = (request: number) => toolResults(server.requests[request]!)[0]!;

    // Stored as written, and read back by the model with #ids, what blocks what, and what is ready.
    expect(answer(1).is_error).toBeUndefined();
    expect(toolResultText(answer(1))).toBe(
      '[ ] #parse Parse the input\n[ ] #tests Write the tests (blocked by #parse)\n[ ] #docs Write the docs (blocked by #parse, #tests)\n\n(0/3 completed; ready to start: #parse)',
    );
    expect(stdout).toContain('[ ] #tests Write the tests (blocked by #parse)');

    const refusals = [2, 3, 4].map((request) => {
      expect(answer(request).is_error).toBe(true);
      return toolResultText(answer(request));
    });
    expect(refusals[0]).toContain('#tests waits for #parse, which is pending');
    expect(refusals[1]).toContain('#parse → #docs → #tests → #parse');
    expect(refusals[2]).toContain('#docs ("Write the docs") waits for #lint, which is not in the plan');
    for (const refusal of refusals) expect(refusal).toContain('The plan is still:\n[ ] #parse Parse the input\n[ ] #tests Write the tests (blocked by #parse)');

    expect(answer(5).is_error).toBeUndefined();
    expect(toolResultText(answer(5))).toBe(
      '[x] #parse Parse the input\n[>] #tests Write the tests (after #parse)\n[ ] #docs Write the docs (blocked by #tests; after #parse)\n\n(1/3 completed)',
    );
    expect(answer(6).is_error).toBeUndefined();
    expect(toolResultText(answer(6))).toContain('(3/3 completed)');
    expect(stdout).toContain('✓ Done.');

    // The transcript holds the three accepted versions, the dependencies with them.
    const sessions = join(home, 'sessions');
    const folder = readdirSync(sessions)[0]!;
    const file = readdirSync(join(sessions, folder)).find((name) => name.endsWith('.jsonl'))!;
    const records = readFileSync(join(sessions, folder, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { type: string; version?: number; items?: unknown; delta?: unknown });
    const plans = records.filter((record) => record.type === 'plan');
    expect(plans.map((record) => record.version)).toEqual([1, 2, 3]);
    expect(plans[0]!.items).toEqual([
      { id: 'parse', content: 'Parse the input', status: 'pending' },
      { id: 'tests', content: 'Write the tests', status: 'pending', blockedBy: ['parse'] },
      { id: 'docs', content: 'Write the docs', status: 'pending', blockedBy: ['parse', 'tests'] },
    ]);
  });
});
