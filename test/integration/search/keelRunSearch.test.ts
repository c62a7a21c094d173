import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  hang,
  reply,
  startScriptedAnthropic,
  text,
  toolResults,
  toolResultText,
  toolUse,
  type ScriptedAnthropic,
  type Step,
} from '../../support/scriptedAnthropic';

// search_text in the built app: `node bin/keel.js run` loads out/main/searchWorker.js (not the
// TypeScript the other tests run), and Ctrl-C still works while a runaway regex is being matched.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-search-1234567890';

let tmp: string;
let workspace: string;
const children: ChildProcess[] = [];
const servers: ScriptedAnthropic[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'out/main/searchWorker.js'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  }
}, 300_000);

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-search-')));
  workspace = join(tmp, 'ws');
  mkdirSync(workspace);
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(tmp, { recursive: true, force: true });
});

async function keelRun(
  script: Step[],
  task: string,
): Promise<{ child: ChildProcess; server: ScriptedAnthropic; exited: Promise<number | null>; output: () => string }> {
  const server = await startScriptedAnthropic({ script, apiKey: KEY });
  servers.push(server);
  const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: join(tmp, 'home'), NO_COLOR: '1', ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.baseURL };
  delete env.ANTHROPIC_MODEL;
  delete env.KEEL_MODEL;
  const child = spawn(process.execPath, [bin, 'run', '--workspace', workspace, '--json', task], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, server, exited, output: () => output };
}

async function until(probe: () => boolean, what: string, output: () => string): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > 30_000) throw new Error(`Timed out waiting for ${what}\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('search_text in keel run (built)', { timeout: 120_000 }, () => {
  it('answers the model with the matches found by the built worker', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'one\nthe needle\n');
    const run = await keelRun([reply(toolUse('search_text', { pattern: 'needle' })), reply(text('Found it.'))], 'find the needle');
    expect(await run.exited, run.output()).toBe(0);
    const [result] = toolResults(run.server.requests[1]!);
    expect(toolResultText(result!)).toBe('a.txt:2: the needle');
  });

  it('exits 130 on Ctrl-C while a runaway regex is being matched', async () => {
    writeFileSync(join(workspace, 'runaway.txt'), `${'a'.repeat(40)}!\n`);
    const run = await keelRun([reply(toolUse('search_text', { pattern: '(a+)+(?=b)' })), hang()], 'search with a bad regex');
    await until(() => run.output().includes('"tool_call"'), 'the search to start', run.output);
    // A main thread busy in the regex would never run the SIGINT handler: the process would not exit.
    run.child.kill('SIGINT');
    expect(await run.exited, run.output()).toBe(130);
  });
});
