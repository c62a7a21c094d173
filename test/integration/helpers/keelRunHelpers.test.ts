import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HelperInfo } from '../../../common/helpers';
import { reply, startScriptedAnthropic, text, toolResults, toolUse, type ScriptedAnthropic, type ScriptedAgent } from '../../support/scriptedAnthropic';
import { waitFor } from '../agent/scenario';

// `keel run` itself (the built CLI, the real SDK, the scripted server playing three agents) in a
// git workspace: two delegate calls in one answer, two helpers side by side, both merged.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-run-helpers-2525';

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

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' });

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

/** Answers once `other` has sent `count` requests: the two helpers wait for each other, so they provably overlap. */
const after = (other: () => ScriptedAgent, count: number, answer: string) => async () => {
  await waitFor(() => other().requests.length >= count, `${other().name}'s request ${count}`);
  return reply(text(answer));
};

describe('keel run: helpers', { timeout: 120_000 }, () => {
  it('runs two delegated steps side by side in worktrees of their own and merges both into the folder', async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-helpers-')));
    const workspace = join(tmp, 'ws');
    const home = join(tmp, 'home');
    mkdirSync(workspace);
    git(workspace, 'init', '-q', '-b', 'main');
    writeFileSync(join(workspace, 'README.md'), '# Project\n');
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '-q', '-m', 'first');
    const agent = (name: string) => () => server.agent(name);
    const server: ScriptedAnthropic = await startScriptedAnthropic({
      apiKey: KEY,
      agents: [
        {
          name: 'main',
          firstMessage: 'write the two files',
          script: [
            reply(
              toolUse('todo', {
                items: [
                  { id: 'a', content: 'Write a.txt', status: 'pending' },
                  { id: 'b', content: 'Write b.txt', status: 'pending' },
                ],
              }),
            ),
            reply(
              toolUse('delegate', { item: 'a', instructions: 'Create a.txt containing A.' }),
              toolUse('delegate', { item: 'b', instructions: 'Create b.txt containing B.' }),
            ),
            reply(toolUse('read_file', { path: 'a.txt' })),
            reply(text('Both files are in the folder.')),
          ],
        },
        {
          name: 'A',
          firstMessage: 'Create a.txt containing A.',
          script: [reply(toolUse('write_file', { path: 'a.txt', content: 'A\n' })), after(agent('B'), 2, 'Wrote a.txt.')],
        },
        {
          name: 'B',
          firstMessage: 'Create b.txt containing B.',
          script: [reply(toolUse('write_file', { path: 'b.txt', content: 'B\n' })), after(agent('A'), 2, 'Wrote b.txt.')],
        },
      ],
    });
    servers.push(server);

    const { code, stdout, stderr } = await run(['--workspace', workspace, '--json', 'write the two files'], server, home);
    expect(code, stderr).toBe(0);
    expect(server.errors).toEqual([]);
    expect(server.remaining).toBe(0);
    // Side by side: both helpers asked before either answered for the last time; each from a fresh context.
    const indexes = (name: string) => server.agent(name).requests.map((r) => r.index);
    expect(Math.max(indexes('A')[0]!, indexes('B')[0]!)).toBeLessThan(Math.min(indexes('A').at(-1)!, indexes('B').at(-1)!));
    expect(server.agent('A').requests[0]!.body.messages).toHaveLength(1);
    expect(server.agent('B').requests[0]!.body.messages).toHaveLength(1);

    // The main agent got both answers, then read a merged file.
    const results = toolResults(server.agent('main').requests[2]!).map((r) => String(r.content));
    expect(results[0]).toContain('helper-1 finished step #a');
    expect(results[0]).toContain('merged into the folder');
    expect(results[1]).toContain('Wrote b.txt.');
    expect(String(toolResults(server.agent('main').requests[3]!)[0]!.content)).toContain('A');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('B\n');

    // --json carries every helper change; the last of each says done and merged.
    const helpers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type: string } & HelperInfo)
      .filter((record) => record.type === 'helper');
    const last = (id: string) => helpers.filter((h) => h.id === id).at(-1)!;
    expect([last('helper-1').state, last('helper-1').merge, last('helper-1').changedFiles]).toEqual(['done', 'merged', ['a.txt']]);
    expect([last('helper-2').state, last('helper-2').merge, last('helper-2').changedFiles]).toEqual(['done', 'merged', ['b.txt']]);

    // Nothing left: no worktree, no stray file, no commit in the person's history.
    const worktrees = join(home, 'worktrees');
    const left = existsSync(worktrees) ? readdirSync(worktrees).flatMap((hash) => readdirSync(join(worktrees, hash))) : [];
    expect(left).toEqual([]);
    expect(git(workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(workspace, 'status', '--porcelain').trim().split('\n').sort()).toEqual(['?? a.txt', '?? b.txt']);
    expect(git(workspace, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
  });
});
