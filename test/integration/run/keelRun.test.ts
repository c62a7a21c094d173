import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  cited,
  hang,
  reply,
  startScriptedAnthropic,
  text,
  textOf,
  thinking,
  toolUse,
  webSearch,
  type ScriptedAnthropic,
  type ScriptedAnthropicOptions,
  type Step,
} from '../../support/scriptedAnthropic';

// `keel run` as a person or a script runs it: `node bin/keel.js run …` in a child process, on the
// built out/ folder, against the scripted Anthropic server.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-run-5566778899';

let tmp: string;
let home: string;
let workspace: string;
const children: ChildProcess[] = [];
const servers: ScriptedAnthropic[] = [];

interface Child {
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function keel(args: string[], server: ScriptedAnthropic | null, apiKey = KEY, extraEnv: NodeJS.ProcessEnv = {}): Child {
  const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, NO_COLOR: '1' };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'KEEL_MODEL']) delete env[name];
  Object.assign(env, extraEnv);
  env.ANTHROPIC_API_KEY = apiKey;
  if (server) env.ANTHROPIC_BASE_URL = server.baseURL;
  const child = spawn(process.execPath, [bin, 'run', ...args], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { process: child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits for the child to exit, failing with its output if it takes far too long. */
async function exitOf(child: Child, timeoutMs = 45_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`keel did not exit within ${timeoutMs} ms\nstdout: ${child.stdout()}\nstderr: ${child.stderr()}`)), timeoutMs);
  });
  try {
    return await Promise.race([child.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(probe: () => boolean, what: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}\nstdout: ${child.stdout()}\nstderr: ${child.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function server(script: Step[], options: Omit<ScriptedAnthropicOptions, 'script' | 'apiKey'> = {}): Promise<ScriptedAnthropic> {
  const s = await startScriptedAnthropic({ ...options, script, apiKey: KEY });
  servers.push(s);
  return s;
}

const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function transcriptPath(sessionId: string): string {
  const sessions = join(home, 'sessions');
  for (const folder of readdirSync(sessions)) {
    const path = join(sessions, folder, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  throw new Error(`no transcript for session ${sessionId}`);
}

const openPlan = [
  { content: 'Write hello.py', status: 'in_progress', activeForm: 'writing hello.py' },
  { content: 'Run it and check the output', status: 'pending' },
];
const donePlan = [
  { content: 'Write hello.py', status: 'completed' },
  { content: 'Run it and check the output', status: 'completed' },
];

beforeAll(() => {
  // `npm test` builds first; a bare `vitest run` on a fresh checkout builds here, once.
  if (!existsSync(join(root, 'out/main/cli.js'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  }
}, 300_000);

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-')));
  home = join(tmp, 'home');
  workspace = join(tmp, 'ws');
  mkdirSync(workspace);
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('keel run', { timeout: 120_000 }, () => {
  it('exits 0 on a finished task, printing the streamed answer and the plan with its progress', async () => {
    const s = await server([
      reply(text('I will plan this first.'), toolUse('todo', { items: openPlan })),
      reply(toolUse('todo', { items: donePlan })),
      reply(text('hello.py prints hello.')),
    ]);
    const child = keel(['--workspace', workspace, 'write hello.py'], s);
    const { code } = await exitOf(child);
    const out = child.stdout();
    expect(code, child.stderr()).toBe(0);
    expect(out).toContain('I will plan this first.');
    expect(out).toContain('hello.py prints hello.');
    expect(out).toContain('── Plan (0/2 done, changed by agent) ──');
    expect(out).toContain('[>] #1 Write hello.py (writing hello.py)');
    expect(out).toContain('── Plan (2/2 done, changed by agent) ──');
    expect(out).toContain('[x] #2 Run it and check the output');
    expect(out).toContain('✓ Done.');
    expect(s.errors).toEqual([]);
    expect(s.requests).toHaveLength(3);
  });

  it('prints no control sequence from the model or a tool, and every line of a command', async () => {
    const s = await server([
      reply(
        text('Hello \x1b]0;owned title\x07there \x1b[31mred\x1b[0m \x1bP1$qm\x1b\\done\x9b2J.'),
        toolUse('bash', { command: 'echo first-line\necho second-line \x1b]2;x\x07' }),
      ),
      reply(text('Finished \x1b]8;;http://evil.invalid\x1b\\link\x1b]8;;\x1b\\.')),
    ]);
    const child = keel(['--workspace', workspace, 'say hello'], s);
    const { code } = await exitOf(child);
    const out = child.stdout();
    expect(code, child.stderr()).toBe(0);
    expect(out).not.toContain('\x1b');
    expect(out).not.toContain('\x07');
    expect(out).not.toContain('\x9b');
    expect(out).toContain('Hello there red done.');
    expect(out).toContain('$ echo first-line\n    echo second-line');
    expect(out).toContain('Finished link.');
    expect(s.errors).toEqual([]);
  });

  it('prints the SDK\'s "model is deprecated" warning once per run, not once per request', async () => {
    // claude-sonnet-4-5 is on the SDK's own deprecation list: it warns on every request it sends.
    const s = await server([
      reply(text('One.'), toolUse('bash', { command: 'echo one' })),
      reply(text('Two.'), toolUse('bash', { command: 'echo two' })),
      reply(text('Three.')),
    ]);
    const child = keel(['--workspace', workspace, 'count'], s, KEY, { KEEL_MODEL: 'claude-sonnet-4-5' });
    const { code } = await exitOf(child);
    expect(code, child.stderr()).toBe(0);
    expect(s.requests).toHaveLength(3);
    expect(child.stderr().split("The model 'claude-sonnet-4-5' is deprecated")).toHaveLength(2);
  });

  it('with --json prints one JSON object per line, the session first, with plan and task_finished events', async () => {
    const s = await server([reply(toolUse('todo', { items: openPlan })), reply(toolUse('todo', { items: donePlan })), reply(text('Done.'))]);
    const child = keel(['--workspace', workspace, '--json', 'write hello.py'], s);
    const { code } = await exitOf(child);
    expect(code, child.stderr()).toBe(0);
    const lines = jsonLines(child.stdout());
    expect(lines[0]).toMatchObject({ type: 'session', workspace: realpathSync(workspace) });
    expect(typeof lines[0]!.sessionId).toBe('string');
    const plans = lines.filter((l) => l.type === 'plan');
    expect(plans.map((p) => (p.items as { status: string }[]).map((i) => i.status))).toContainEqual(['completed', 'completed']);
    expect(plans.at(-1)).toMatchObject({ version: 2, source: 'agent' });
    expect(lines.filter((l) => l.type === 'task_finished')).toEqual([expect.objectContaining({ outcome: 'done' })]);
    expect(lines.some((l) => l.type === 'text')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'result', outcome: 'done' });
  });

  it('asks a thinking model to think, prints only its answer, and gives the thinking its own --json event', async () => {
    const model = { id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 128_000, thinking: ['adaptive' as const], effort: ['medium' as const] };
    const script = () => [reply(thinking('Private reasoning about the greeting.'), text('Hello there.'))];
    const plain = await server(script(), { catalogue: [model] });
    const printed = keel(['--workspace', workspace, 'say hello'], plain, KEY, { KEEL_MODEL: model.id });
    expect((await exitOf(printed)).code, printed.stderr()).toBe(0);
    expect(plain.requests[0]!.body.thinking).toEqual({ type: 'adaptive' });
    expect(printed.stdout()).toContain('Hello there.');
    expect(printed.stdout() + printed.stderr()).not.toContain('Private reasoning');

    const json = await server(script(), { catalogue: [model] });
    const child = keel(['--workspace', workspace, '--json', 'say hello'], json, KEY, { KEEL_MODEL: model.id });
    expect((await exitOf(child)).code, child.stderr()).toBe(0);
    const lines = jsonLines(child.stdout());
    const thought = lines
      .filter((l) => l.type === 'thinking')
      .map((l) => l.delta as string)
      .join('');
    expect(thought).toBe('Private reasoning about the greeting.');
    expect(
      lines
        .filter((l) => l.type === 'text')
        .map((l) => l.delta as string)
        .join(''),
    ).toBe('Hello there.');
  });

  it('prints the web search the API ran, its results’ sites, and with --json its events', async () => {
    const searched = () =>
      reply(
        ...webSearch('vitest projects', [
          { url: 'https://vitest.dev/guide/projects', title: 'Test Projects' },
          { url: 'https://blog.example.org/vitest', title: 'A post' },
        ]),
        cited('Each project has its own config.', { url: 'https://vitest.dev/guide/projects', title: 'Test Projects' }),
      );
    const s = await server([searched(), searched()], {
      catalogue: [{ id: 'claude-sonnet-5-5', max_tokens: 64_000, serverTools: ['web_search'] }],
    });
    // The scripted server is not Anthropic's host: `on` offers the search where the catalogue lists it.
    const env = { KEEL_MODEL: 'claude-sonnet-5-5', KEEL_WEB_SEARCH: 'on' };
    const plain = keel(['--workspace', workspace, 'how do vitest projects work?'], s, KEY, env);
    expect((await exitOf(plain)).code, plain.stderr()).toBe(0);
    expect(plain.stdout()).toContain('● web search "vitest projects"\n  ⎿ 2 results: vitest.dev, blog.example.org\n');
    expect(plain.stdout()).toContain('Each project has its own config.');

    const json = keel(['--workspace', workspace, '--json', 'again'], s, KEY, env);
    expect((await exitOf(json)).code, json.stderr()).toBe(0);
    const lines = jsonLines(json.stdout());
    expect(lines.find((l) => l.type === 'web_search')).toMatchObject({ query: 'vitest projects' });
    expect(lines.find((l) => l.type === 'web_search_results')).toMatchObject({
      results: [{ url: 'https://vitest.dev/guide/projects', title: 'Test Projects' }, {}],
    });
    expect(s.errors).toEqual([]);
  });

  it('exits 3 when the task stops with an unfinished plan, naming the open items', async () => {
    const s = await server([reply(toolUse('todo', { items: openPlan })), reply(text('Done, I think.')), reply(text('Done.')), reply(text('Really done.'))]);
    const child = keel(['--workspace', workspace, 'write hello.py'], s);
    const { code } = await exitOf(child);
    expect(code, child.stderr()).toBe(3);
    expect(child.stdout()).toContain('Stopped with an unfinished plan');
    expect(child.stdout()).toContain('[>] #1 Write hello.py');
    expect(child.stdout()).toContain('[ ] #2 Run it and check the output');
    expect(s.requests).toHaveLength(4);
  });

  it('exits 1 with a plain message when the API key is refused, and never prints the key', async () => {
    const s = await server([reply(text('never sent'))]);
    const wrongKey = 'sk-wrong-keel-run-1357913579';
    const child = keel(['--workspace', workspace, 'hello'], s, wrongKey);
    const { code } = await exitOf(child);
    expect(code).toBe(1);
    const all = child.stdout() + child.stderr();
    expect(all).toMatch(/API key was refused \(401\)/);
    expect(all).toMatch(/Check the API key/);
    expect(all).not.toContain(wrongKey);
    expect(s.requests).toHaveLength(1);
  });

  it.each([
    { args: ['--workspace', '.'], says: 'Give the task to run' },
    { args: ['--frobnicate', 'hello'], says: 'Unknown option "--frobnicate"' },
  ])('exits 2 on a usage error: $says', async ({ args, says }) => {
    const child = keel(args, null);
    const { code } = await exitOf(child);
    expect(code).toBe(2);
    expect(child.stderr()).toContain(says);
    expect(child.stderr()).toContain('Usage:');
  });

  it('exits 130 on Ctrl-C while the model is answering, with the session saved', async () => {
    const s = await server([hang()]);
    const child = keel(['--workspace', workspace, '--json', 'a task that will be interrupted'], s);
    await until(() => s.requests.length === 1, 'the request', child);
    child.process.kill('SIGINT');
    const { code } = await exitOf(child);
    expect(code, child.stderr()).toBe(130);

    const lines = jsonLines(child.stdout());
    const sessionId = lines[0]!.sessionId as string;
    expect(lines.filter((l) => l.type === 'task_finished')).toEqual([expect.objectContaining({ outcome: 'cancelled' })]);
    const transcript = readFileSync(transcriptPath(sessionId), 'utf8');
    expect(transcript).toContain('a task that will be interrupted');
    expect(transcript).toContain('"outcome":"cancelled"');
  });

  it('resumes a session whose process was killed while the model was answering, with a valid request that holds the earlier conversation', async () => {
    const first = await server([reply(text('Planning.'), toolUse('todo', { items: openPlan })), hang()]);
    const killed = keel(['--workspace', workspace, '--json', 'write hello.py'], first);
    await until(() => first.requests.length === 2, 'the second request', killed);
    killed.process.kill('SIGKILL');
    const { signal } = await exitOf(killed);
    expect(signal).toBe('SIGKILL');
    const sessionId = jsonLines(killed.stdout().split('\n')[0]!)[0]!.sessionId as string;

    const second = await server([reply(text('Carrying on with hello.py.'))]);
    const resumed = keel(['--workspace', workspace, '--json', '--resume', sessionId, 'continue'], second);
    const { code } = await exitOf(resumed);
    expect(code, resumed.stderr()).toBe(0);
    expect(jsonLines(resumed.stdout())[0]).toMatchObject({ type: 'session', sessionId });

    expect(second.errors).toEqual([]);
    const request = second.requests[0]!;
    expect(request.rejected).toBeUndefined(); // the validating server accepted it
    const messages = request.body.messages;
    expect(textOf(messages[0])).toContain('write hello.py');
    const uses = messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_use');
    const results = messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
    expect(uses).toHaveLength(1);
    expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
    expect(textOf(messages.at(-1))).toContain('continue');
    // The plan it left unfinished was restored and shown.
    expect(textOf(messages.at(-1))).toContain('[>] #1 Write hello.py');
  });

  it('resumes a session whose process was killed while a command ran, answering the interrupted tool call', async (context) => {
    const marker = `sleep 30.${process.pid}${Date.now() % 100_000}`;
    const first = await server([reply(toolUse('bash', { command: marker }, 'toolu_sleeping'))]);
    const killed = keel(['--workspace', workspace, '--json', 'wait for it'], first);
    await until(() => first.requests.length === 1, 'the first request', killed);
    const offered = (first.requests[0]!.body.tools ?? []).map((t) => ('name' in t ? t.name : ''));
    if (!offered.includes('bash')) {
      // The built keel has no bash tool yet: nothing can be in flight for long enough.
      await exitOf(killed).catch(() => undefined);
      context.skip();
    }
    const pids = (): number[] => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').map(Number);
      } catch {
        return [];
      }
    };
    try {
      await until(() => pids().length > 0, 'the command to start', killed);
      killed.process.kill('SIGKILL');
      await exitOf(killed);
      const sessionId = jsonLines(killed.stdout().split('\n')[0]!)[0]!.sessionId as string;

      const second = await server([reply(text('The earlier command was interrupted; moving on.'))]);
      const resumed = keel(['--workspace', workspace, '--json', '--resume', sessionId, 'continue'], second);
      const { code } = await exitOf(resumed);
      expect(code, resumed.stderr()).toBe(0);
      const request = second.requests[0]!;
      expect(request.rejected).toBeUndefined();
      const results = request.body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_result');
      expect(results).toEqual([expect.objectContaining({ tool_use_id: 'toolu_sleeping', is_error: true })]);
      expect(textOf(request.body.messages.at(-1))).toContain('continue');
    } finally {
      for (const pid of pids()) process.kill(pid, 'SIGKILL');
    }
  });
});
