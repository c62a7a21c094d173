// The sandbox helper: one child process per workspace, started with the workspace as its working
// directory. The sandbox runtime roots its mandatory protections (.git/hooks, shell rc files) at
// process.cwd(), so running it inside Keel's own process would protect whatever folder Keel was
// started in (often `/`) instead of the workspace. It wraps commands; the parent runs them.
import { spawnSync } from 'node:child_process';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { afterBridges } from './bridgeWait';
import type { HelperMessage, HelperReply, HelperRequest } from './helperProtocol';

const CHECK_TIMEOUT_MS = 15_000;
let config: SandboxRuntimeConfig | undefined;
let nextAsk = 1;
const asks = new Map<number, (allow: boolean) => void>();

function reply(message: HelperMessage): void {
  process.send?.(message);
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

/** A real wrapped `true`: a dependency check alone misses a kernel that forbids user namespaces. */
async function check(): Promise<string | undefined> {
  const deps = SandboxManager.checkDependencies();
  if (deps.errors.length > 0) return deps.errors.join('; ');
  const wrapped = await SandboxManager.wrapWithSandbox('true', '/bin/bash');
  const run = spawnSync('/bin/bash', ['-c', wrapped], { encoding: 'utf8', timeout: CHECK_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  SandboxManager.cleanupAfterCommand();
  if (run.error) return run.error.message;
  if (run.status !== 0) return (run.stderr || run.stdout || `exit ${run.status ?? run.signal}`).trim().split('\n').slice(-3).join(' ').slice(0, 500);
  return undefined;
}

async function handle(request: HelperRequest): Promise<HelperReply> {
  switch (request.type) {
    case 'init': {
      if (!SandboxManager.isSupportedPlatform()) return { id: request.id, ok: false, error: `no sandbox on ${process.platform}` };
      config = request.config;
      await SandboxManager.initialize(config, askKeel);
      const sockets = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()].filter((s): s is string => !!s);
      return { id: request.id, ok: true, sockets };
    }
    case 'check': {
      const problem = await check();
      return problem === undefined ? { id: request.id, ok: true } : { id: request.id, ok: false, error: problem };
    }
    case 'wrap': {
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
    case 'hosts':
      if (config) {
        config = { ...config, network: { ...config.network, allowedDomains: request.allowedHosts } };
        SandboxManager.updateConfig(config);
      }
      return { id: request.id, ok: true };
  }
}

process.on('message', (message: HelperRequest) => {
  handle(message).then(reply, (error: unknown) => reply({ id: message.id, ok: false, error: describe(error) }));
});

// The parent's end: take the proxies and the placeholder files down with it.
process.on('disconnect', () => {
  void SandboxManager.reset().finally(() => process.exit(0));
});
