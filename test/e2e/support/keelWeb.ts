import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where bin/keel.js and the built out/ live). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface KeelWeb {
  /** `http://127.0.0.1:PORT/?token=...`, as `keel web` printed it. */
  url: string;
  /** Everything the child wrote to stderr so far (warnings, errors). */
  stderr(): string;
  /** Stops the child (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends `signal` (a crash: SIGKILL) and waits for the child to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  /** Passed as --workspace; leave out to start with no folder open. */
  workspace?: string;
  /** KEEL_HOME of the child: where its sessions are kept. */
  keelHome: string;
  timeoutMs?: number;
  /**
   * Extra environment (e.g. ANTHROPIC_BASE_URL of the scripted model). The model variables of the
   * machine running the tests are never passed on: a test must not reach a real API by accident.
   */
  env?: Record<string, string>;
}

/**
 * Starts `node bin/keel.js web --port 0` as a real child process and reads its URL from the
 * `Open http://...` line it prints. Needs `npm run build:test` first (the terminal tests use its hook).
 */
export async function startKeelWeb({ workspace, keelHome, timeoutMs = 60_000, env = {} }: StartOptions): Promise<KeelWeb> {
  const args = [join(repoRoot, 'bin/keel.js'), 'web', ...(workspace === undefined ? [] : ['--workspace', workspace]), '--port', '0'];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...withoutModelVariables(process.env), KEEL_HOME: keelHome, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not print its URL within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`keel web ${why}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
  });

  return {
    url,
    stderr: () => stderr,
    stop: () => stopChild(child, exited),
    kill: async (signal) => {
      child.kill(signal);
      await exited;
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A fresh temporary folder; `remove` deletes it and everything in it. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `keel-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

function withoutModelVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'KEEL_MODEL', 'ANTHROPIC_AUTH_TOKEN']) delete copy[name];
  return copy;
}
