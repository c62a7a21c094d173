// The sandbox helper: one child process per workspace, started with the workspace as its working
// directory. The sandbox runtime roots its mandatory protections (.git/hooks, shell rc files) at
// process.cwd(), so running it inside Keel's own process would protect whatever folder Keel was
// started in (often `/`) instead of the workspace. It wraps commands; the parent runs them.
// It runs as a Node child (IPC through process.send) or as an Electron utility process (through
// process.parentPort): the packaged app's RunAsNode fuse is off, so it cannot fork Node.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { afterBridges } from './bridgeWait';
import type { HelperMessage, HelperReply, HelperRequest } from './helperProtocol';
import { offerProgramLookup } from './programLookup';
import { seccompApplyPath } from './seccompPath';

const CHECK_TIMEOUT_MS = 15_000;
let config: SandboxRuntimeConfig | undefined;
let nextAsk = 1;
const asks = new Map<number, (allow: boolean) => void>();

/** Electron's end of a utility process's channel to the main process. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: HelperRequest }) => void): void;
  postMessage(message: HelperMessage): void;
}
const parentPort = (process as { parentPort?: ParentPort }).parentPort;

function reply(message: HelperMessage): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

/** The proxy's question for a host nobody listed: Keel's network policy answers it. */
function askKeel({ host, port }: { host: string; port: number | undefined }): Promise<boolean> {
  const askId = nextAsk++;
  return new Promise((resolve) => {
    asks.set(askId, resolve);
    reply({ type: 'ask', askId, host, port });
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The apply-seccomp binary from disk, also when the runtime itself is read from a packaged app's asar. */
function withSeccomp(requested: SandboxRuntimeConfig): SandboxRuntimeConfig {
  if (process.platform !== 'linux' || requested.seccomp) return requested;
  const applyPath = seccompApplyPath(createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime'));
  return applyPath ? { ...requested, seccomp: { applyPath } } : requested;
}

/** A real wrapped `true`: a dependency check alone misses a kernel that forbids user namespaces. */
async function check(): Promise<{ problem?: string; warnings: string[] }> {
  const deps = SandboxManager.checkDependencies();
  if (deps.errors.length > 0) return { problem: deps.errors.join('; '), warnings: deps.warnings };
  const wrapped = await SandboxManager.wrapWithSandbox('true', '/bin/bash');
  const run = spawnSync('/bin/bash', ['-c', wrapped], { encoding: 'utf8', timeout: CHECK_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  SandboxManager.cleanupAfterCommand();
  if (run.error) return { problem: run.error.message, warnings: deps.warnings };
  if (run.status !== 0) {
    const problem = (run.stderr || run.stdout || `exit ${run.status ?? run.signal}`).trim().split('\n').slice(-3).join(' ').slice(0, 500);
    return { problem, warnings: deps.warnings };
  }
  return { warnings: deps.warnings };
}

/** The proxy reads the list per connection, so a host listed since the last command is reached by the next. */
function listHosts(allowedHosts: string[]): void {
  if (!config) return;
  const current = config.network.allowedDomains;
  if (current.length === allowedHosts.length && current.every((host, i) => host === allowedHosts[i])) return;
  config = { ...config, network: { ...config.network, allowedDomains: allowedHosts } };
  SandboxManager.updateConfig(config);
}

async function handle(request: HelperRequest): Promise<HelperReply> {
  switch (request.type) {
    case 'init': {
      if (!SandboxManager.isSupportedPlatform()) return { id: request.id, ok: false, error: `no sandbox on ${process.platform}` };
      config = withSeccomp(request.config);
      await SandboxManager.initialize(config, askKeel);
      const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()].filter((s): s is string => !!s);
      return { id: request.id, ok: true, sockets };
    }
    case 'check': {
      const { problem, warnings } = await check();
      return problem === undefined ? { id: request.id, ok: true, warnings } : { id: request.id, ok: false, error: problem };
    }
    case 'wrap': {
      listHosts(request.allowedHosts);
      // Read by the runtime at wrap time: each session's commands get their own temp folder.
      process.env.CLAUDE_CODE_TMPDIR = request.tmpDir;
      // On Linux the command reaches the network through socat bridges started just before it: wait for them.
      const bridged = process.platform === 'linux' && !!SandboxManager.getLinuxHttpSocketPath();
      const command = bridged ? afterBridges(request.command) : request.command;
      const wrapped = await SandboxManager.wrapWithSandbox(command, '/bin/bash', undefined, undefined, { commandId: request.commandId });
      return { id: request.id, ok: true, wrapped };
    }
    case 'after':
      SandboxManager.cleanupAfterCommand();
      return { id: request.id, ok: true };
    case 'answer':
      asks.get(request.askId)?.(request.allow);
      asks.delete(request.askId);
      return { id: request.id, ok: true };
    case 'shutdown':
      void shutDown();
      return { id: request.id, ok: true };
  }
}

function receive(message: HelperRequest): void {
  handle(message).then(reply, (error: unknown) => reply({ id: message.id, ok: false, error: describe(error) }));
}

let shuttingDown: Promise<void> | undefined;
/** Takes the proxies and the placeholder files down, then ends. */
function shutDown(): Promise<void> {
  shuttingDown ??= SandboxManager.reset().finally(() => process.exit(0));
  return shuttingDown;
}

offerProgramLookup();
if (parentPort) parentPort.on('message', (event) => receive(event.data));
else process.on('message', receive);

// A Node child whose parent ended without asking (a crash): the same clean-up. A utility process
// ends with Electron's main process.
process.on('disconnect', () => void shutDown());
