import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import WebSocket from 'ws';

// `node bin/keel.js` as a person runs it: a real child process on the built out/ folder.

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'keel.js');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

let tmp: string;
const children: ChildProcess[] = [];

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts keel; the child is killed when the test finishes, whatever its outcome. */
function launch(args: string[], context: TestContext): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: tmp,
    env: { ...process.env, KEEL_HOME: join(tmp, 'home'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  context.onTestFinished(() => kill(child));
  return child;
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function finished(child: ChildProcess, timeoutMs = 60_000): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`keel did not exit within ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`)), timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const run = (context: TestContext, ...args: string[]) => finished(launch(args, context));

/** Reads the child's stdout until `pattern` matches. */
function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  let seen = '';
  let errors = '';
  child.stderr?.on('data', (c: Buffer) => (errors += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No ${pattern} within ${timeoutMs} ms; stdout: ${seen} stderr: ${errors}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`keel exited with ${code} before printing ${pattern}; stderr: ${errors}`)));
    child.stdout?.on('data', (c: Buffer) => {
      seen += c.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
  });
}

beforeAll(() => {
  // `npm test` builds first; a bare `vitest run` on a fresh checkout builds here, once.
  if (!existsSync(join(root, 'out/main/cli.js')) || !existsSync(join(root, 'out/renderer/index.html'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit', timeout: 280_000 });
  }
  tmp = mkdtempSync(join(tmpdir(), 'keel-cli-'));
}, 300_000);

afterAll(() => {
  // A last net: every test already kills its own children when it finishes.
  children.forEach(kill);
  rmSync(tmp, { recursive: true, force: true });
});

// Each case is its own short-lived process: run them side by side, each with its own `expect`.
// Generous timeouts: a loaded two-core machine can take seconds just to start node.
describe.concurrent('keel arguments', { timeout: 90_000 }, () => {
  it('--help prints the usage and exits 0', async (context) => {
    const { expect } = context;
    const result = await run(context, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(result.stdout).toContain('keel web [--workspace DIR] [--port N]');
    expect(result.stderr).toBe('');
  });

  it('--version prints the version and exits 0', async (context) => {
    const { expect } = context;
    const result = await run(context, '--version');
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('an unknown command exits 2 with the usage on stderr', async (context) => {
    const { expect } = context;
    const result = await run(context, 'frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command "frobnicate"');
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('no command exits 2 with the usage on stderr', async (context) => {
    const { expect } = context;
    const result = await run(context);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No command given');
    expect(result.stderr).toContain('Usage:');
  });

  // Every usage error is in test/unit/cli/cliArguments.test.ts; here one, through the real binary.
  it('web --port abc exits 2 with a usage error', async (context) => {
    const { expect } = context;
    const result = await run(context, 'web', '--port', 'abc');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port must be a number from 0 to 65535, not "abc"');
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('web --workspace with a missing folder exits 1 and says so', async (context) => {
    const { expect } = context;
    const missing = `/nonexistent/keel-test-${process.pid}`;
    const result = await run(context, 'web', '--workspace', missing, '--port', '0');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`keel: The folder "${missing}" does not exist.`);
    expect(result.stdout).toBe('');
  });
});

describe('keel web', { timeout: 90_000 }, () => {
  it('serves the page and the socket on the printed URL, and exits 0 on SIGTERM', async (context) => {
    const workspace = join(tmp, 'project');
    mkdirSync(workspace, { recursive: true });
    const child = launch(['web', '--workspace', workspace, '--port', '0'], context);
    const exited = finished(child);
    const [, url, port, token] = (await waitForOutput(child, /Open (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))\s/)) as unknown as [
      string,
      string,
      string,
      string,
    ];

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<div id="root">');

    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=not-${token}`);
      ws.once('unexpected-response', (req, res) => {
        res.resume();
        req.destroy();
        resolve(res.statusCode ?? 0);
      });
      ws.on('error', () => undefined);
      ws.once('open', () => reject(new Error('accepted a wrong token')));
    });
    expect(refused).toBe(401);

    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: `http://127.0.0.1:${port}` });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const reply = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
    ws.send(JSON.stringify({ type: 'request', id: 1, channel: 'workspace.current', payload: {} }));
    expect(await reply).toMatchObject({ type: 'response', id: 1, result: { ok: true, value: { path: realpathSync(workspace), name: 'project' } } });
    // The session lives under KEEL_HOME, not in the person's home folder.
    const sessions = join(tmp, 'home', 'sessions');
    const files = () => readdirSync(sessions).flatMap((dir) => readdirSync(join(sessions, dir)));
    expect(files().filter((name) => name.endsWith('.jsonl'))).toHaveLength(1);
    // The session is this process's to write while it runs (see sessionLock).
    expect(files().filter((name) => name.endsWith('.jsonl.lock'))).toHaveLength(1);

    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    child.kill('SIGTERM');
    const result = await exited;
    await closed;
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain(`Keel is serving ${realpathSync(workspace)}`);
    expect(files().filter((name) => name.endsWith('.lock'))).toEqual([]);
  });
});
