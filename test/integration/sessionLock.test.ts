import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectKeelSocket, type KeelSocket } from '../e2e/support/keelSocket';
import { repoRoot, startKeelWeb, tempDir, type KeelWeb } from '../e2e/support/keelWeb';
import { reply, startScriptedAnthropic, text, type ScriptedAnthropic } from '../support/scriptedAnthropic';

// One writer per session, between real processes: two `keel web` on one folder and data folder,
// and `keel run --resume` beside them. Needs `npm run build` first.

const KEY = 'sk-test-session-lock-1234567890';

let dir: ReturnType<typeof tempDir>;
let workspace: string;
let home: string;
const webs: KeelWeb[] = [];
const sockets: KeelSocket[] = [];
const servers: ScriptedAnthropic[] = [];

beforeEach(() => {
  dir = tempDir('lock');
  workspace = join(dir.path, 'project');
  home = join(dir.path, 'home');
  mkdirSync(workspace);
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const web of webs.splice(0)) await web.stop();
  for (const server of servers.splice(0)) await server.close();
  dir.remove();
});

async function web(): Promise<{ web: KeelWeb; socket: KeelSocket; sessionId: string }> {
  const started = await startKeelWeb({ workspace, keelHome: home });
  webs.push(started);
  const socket = await connectKeelSocket(started.url);
  sockets.push(socket);
  const current = await socket.request('workspace.current', {});
  if (!current.ok || !current.value) throw new Error(`no session: ${JSON.stringify(current)}`);
  return { web: started, socket, sessionId: current.value.sessionId };
}

function run(args: string[], server: ScriptedAnthropic | null): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, KEEL_HOME: home, NO_COLOR: '1', ANTHROPIC_API_KEY: KEY };
  for (const name of ['ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'KEEL_MODEL', 'ANTHROPIC_AUTH_TOKEN']) delete env[name];
  if (server) env.ANTHROPIC_BASE_URL = server.baseURL;
  const child = spawn(process.execPath, [join(repoRoot, 'bin/keel.js'), 'run', '--workspace', workspace, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function scripted(): Promise<ScriptedAnthropic> {
  const server = await startScriptedAnthropic({ script: [reply(text('Resumed and done.'))], apiKey: KEY });
  servers.push(server);
  return server;
}

function lockFiles(): string[] {
  const sessions = join(home, 'sessions');
  return readdirSync(sessions).flatMap((folder) => readdirSync(join(sessions, folder)).filter((name) => name.includes('.lock')));
}

describe('one writer per session', () => {
  it('a second keel web on the same folder opens a new session, not the first one’s', async () => {
    const first = await web();
    const second = await web();
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.web.stderr()).toContain(`(${first.sessionId}) is open in another Keel process (pid `);
    // Opening the first one's session from the second window is refused with the reason.
    const open = await second.socket.request('session.open', { id: first.sessionId });
    expect(open.ok).toBe(false);
    if (!open.ok) {
      expect(open.error.code).toBe('session_in_use');
      expect(open.error.message).toContain('is open in another Keel process');
    }
    // And so is deleting it: the copies its Changes view undoes with stay, for the window that has it open.
    const changes = join(home, 'changes', first.sessionId);
    expect(existsSync(changes)).toBe(true);
    const deleted = await second.socket.request('session.delete', { id: first.sessionId });
    expect(deleted.ok).toBe(false);
    if (!deleted.ok) expect(deleted.error.code).toBe('session_in_use');
    expect(existsSync(changes)).toBe(true);
    const listed = await first.socket.request('session.list', {});
    expect(listed.ok && listed.value.map((s) => s.id)).toContain(first.sessionId);
  });

  it('keel run --resume refuses a session that a keel web has open, and says why', async () => {
    const first = await web();
    const result = await run(['--resume', first.sessionId, 'carry on'], null);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The session "${first.sessionId}" is open in another Keel process (pid `);
    expect(result.stderr).toContain('Close it there first');
  });

  it('takes over the lock of a killed process, and a clean exit leaves no lock behind', async () => {
    const first = await web();
    expect(lockFiles()).toHaveLength(1);
    await first.web.kill('SIGKILL');
    expect(lockFiles()).toHaveLength(1); // a killed process cannot clean up

    const result = await run(['--json', '--resume', first.sessionId, 'carry on'], await scripted());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`"sessionId":"${first.sessionId}"`);
    expect(lockFiles()).toEqual([]);

    const second = await web();
    expect(second.sessionId).toBe(first.sessionId); // the latest session, free again
    await second.web.stop();
    expect(existsSync(join(home, 'sessions'))).toBe(true);
    expect(lockFiles()).toEqual([]);
  });
});
