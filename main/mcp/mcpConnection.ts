import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpScope, McpServerConfig, McpServerState } from '../../common/mcp';
import { commandEnvironment, loginShellPath } from '../platform/loginEnvironment';
import { killProcessTree } from '../platform/killTree';
import { shellCommandLine } from '../platform/shellQuote';
import type { SandboxStatus } from '../../common/sandbox';
import { expandRecord, expandVariables } from './expandVariables';
import { loadMcpSdk, loadedMcpSdk, type McpSdk } from './mcpSdk';
import { StderrTail } from './stderrTail';
import { serverSegment } from './toolNames';

export const DEFAULT_START_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 5 * 60_000;
const MARKER_VARIABLE = 'KEEL_MCP_SERVER';
// The build defines it; a bench run straight from source (tsx) does not.
const CLIENT_VERSION = typeof __KEEL_VERSION__ === 'string' ? __KEEL_VERSION__ : '0.0.0';

export interface ConnectionOptions {
  name: string;
  /** Its tools' `mcp__<segment>__` prefix, unique among the open servers (the manager picks it). */
  segment?: string;
  scope: McpScope;
  config: McpServerConfig;
  /** Where a stdio server runs unless its config says `cwd`. */
  workspace: string;
  startTimeoutMs?: number;
  onChange: () => void;
  log?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The workspace's OS sandbox, for a server whose config asks to run in it. */
  sandbox?: () => McpSandbox | null;
}

/** What a sandboxed server needs of the workspace's sandbox (main/sandbox/workspaceSandbox.ts). */
export interface McpSandbox {
  start(): Promise<SandboxStatus>;
  wrap(command: string, sessionId: string): Promise<{ file: string; args: string[]; env: Record<string, string>; done(): Promise<unknown> }>;
}

/** A call that could not reach the server: its message says what happened and what the model can do. */
export class McpUnavailableError extends Error {}

/**
 * One MCP server: started (within a timeout), listed, called, stopped with its whole process tree.
 * It never throws out of start(): a server that cannot start is `failed` with the reason and its
 * stderr tail. A server that exits while running is `failed` too, and the next call tries one restart.
 */
export class McpConnection {
  state: McpServerState = 'stopped';
  error: string | undefined;
  tools: McpTool[] = [];
  private readonly stderr = new StderrTail();
  private client: Client | null = null;
  private transport: Transport | null = null;
  private marker = '';
  /** After a sandboxed server ended: the sandbox's clean-up of its run. */
  private sandboxDone: (() => Promise<unknown>) | undefined;
  private generation = 0;
  private starting: Promise<void> | null = null;

  constructor(readonly options: ConnectionOptions) {}

  get name(): string {
    return this.options.name;
  }

  get segment(): string {
    return this.options.segment ?? serverSegment(this.options.name);
  }

  get stderrTail(): string {
    return this.stderr.value;
  }

  /** Starts (or restarts) the server; resolves when it runs or has failed. Concurrent calls share one start. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => (this.starting = null));
    return this.starting;
  }

  /** Resolves once a start under way has ended. */
  async settled(): Promise<void> {
    await this.starting;
  }

  private async connect(): Promise<void> {
    // 'starting' at once, so whoever looks next (the first task) waits for it.
    const generation = ++this.generation;
    this.error = undefined;
    this.tools = [];
    this.setState('starting');
    await this.closeCurrent();
    this.stderr.clear();
    const timeoutMs = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const sdk = await loadMcpSdk();
      const transport = await this.createTransport(sdk);
      const client = new sdk.Client({ name: 'keel', version: CLIENT_VERSION }, { capabilities: {} });
      client.onclose = () => this.closed(generation);
      client.onerror = (error) => this.options.log?.(`mcp ${this.name}: ${error.message}`);
      this.client = client;
      this.transport = transport;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new McpUnavailableError(`did not answer within ${Math.round(timeoutMs / 1000)} s of starting`)), timeoutMs);
      });
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), timedOut]);
      const tools = await Promise.race([listAllTools(client, timeoutMs), timedOut]);
      if (generation !== this.generation) return;
      this.tools = tools;
      this.setState('running');
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = describeStartError(error, this.options.config);
      await this.closeCurrent();
      this.setState('failed');
    } finally {
      clearTimeout(timer);
    }
  }

  private async createTransport({ SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport }: McpSdk): Promise<Transport> {
    const config = this.options.config;
    const env = this.options.env ?? process.env;
    const missing = new Set<string>();
    let transport: Transport;
    if ('url' in config) {
      const url = new URL(expandVariables(config.url, env, missing));
      const headers = expandRecord(config.headers, env, missing);
      const requestInit = headers ? { headers } : undefined;
      transport = config.type === 'sse' ? new SSEClientTransport(url, { requestInit }) : new StreamableHTTPClientTransport(url, { requestInit });
    } else {
      this.marker = `${MARKER_VARIABLE}=${randomUUID()}`;
      const cwd = config.cwd ? (isAbsolute(config.cwd) ? config.cwd : resolve(this.options.workspace, config.cwd)) : this.options.workspace;
      let command = expandVariables(config.command, env, missing);
      let args = (config.args ?? []).map((arg) => expandVariables(arg, env, missing));
      let sandboxEnv: Record<string, string> = {};
      if (config.sandbox) {
        const wrapped = await this.sandboxed(command, args);
        ({ file: command, args, env: sandboxEnv } = wrapped);
        this.sandboxDone = wrapped.done;
      }
      const stdio = new StdioClientTransport({
        command,
        args,
        // The SDK adds a safe few of Keel's variables (HOME, PATH, USER…); the login PATH lets a
        // window started from the Dock find npx or uvx; the marker finds the server's whole tree.
        env: {
          ...commandEnvironment(env, await loginShellPath()),
          ...expandRecord(config.env, env, missing),
          ...sandboxEnv,
          // The sandbox runs the server through `bash -c`, whose stdin here is a socket (Node's
          // pipes are socket pairs): a top-level bash takes that for rshd and runs ~/.bashrc,
          // outside and inside the sandbox (slow, and it waited 60 s on a stale pyenv lock).
          // Below level 2 only: a level of 1 makes each of them a nested shell.
          ...(config.sandbox ? { SHLVL: '1' } : {}),
          [MARKER_VARIABLE]: this.marker.split('=')[1]!,
        },
        cwd,
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString('utf8')));
      transport = stdio;
    }
    if (missing.size > 0) this.stderr.push(`keel: the config names unset environment variables: ${[...missing].join(', ')}\n`);
    return transport;
  }

  /** The server's command line wrapped by the workspace's sandbox; refused (never run bare) when there is none. */
  private async sandboxed(command: string, args: string[]): Promise<{ file: string; args: string[]; env: Record<string, string>; done(): Promise<unknown> }> {
    const sandbox = this.options.sandbox?.() ?? null;
    const status = sandbox ? await sandbox.start() : null;
    if (!sandbox || status?.state !== 'on') {
      const why = !status
        ? 'Keel has no sandbox here'
        : status.state === 'unavailable'
          ? `the sandbox is unavailable: ${status.why}`
          : `the sandbox is ${status.state}`;
      throw new McpUnavailableError(`its config asks to run in the sandbox ("sandbox": true), and ${why}; it was not started unsandboxed.`);
    }
    return sandbox.wrap(shellCommandLine(command, args), `mcp-${this.segment}`);
  }

  /** The client closed without being asked: the server exited or the connection dropped. */
  private closed(generation: number): void {
    if (generation !== this.generation || this.state !== 'running') return;
    this.error = 'exited unexpectedly';
    this.client = null;
    this.transport = null;
    this.setState('failed');
  }

  /**
   * Calls a tool. A server that is not running (it crashed, or never started) gets one restart
   * first. Throws McpUnavailableError when it cannot be reached; other errors are the SDK's
   * (timeout, cancellation, the connection closing mid-call).
   */
  async callTool(tool: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs?: number }): Promise<CallToolResult> {
    if (this.state === 'starting') await untilAborted(this.settled(), options.signal);
    if (this.state !== 'running') {
      const before = this.error;
      await untilAborted(this.start(), options.signal);
      // start() changed the state meanwhile.
      if ((this.state as McpServerState) !== 'running') {
        throw new McpUnavailableError(
          `the server "${this.name}" is not running${before ? ` (${before})` : ''} and a restart failed: ${this.error ?? 'unknown reason'}`,
        );
      }
    }
    const client = this.client!;
    // The SDK leaves its listener on the signal it is given; a task's signal serves many calls,
    // so each call gets its own, linked to the task's and unlinked when the call ends.
    const call = new AbortController();
    const onAbort = () => call.abort(options.signal.reason);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: call.signal,
        timeout: options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        // A long job that reports progress is not cut off while it still moves.
        resetTimeoutOnProgress: true,
        onprogress: () => {},
      });
      return result as CallToolResult;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  }

  async stop(): Promise<void> {
    this.generation++;
    await this.starting?.catch(() => {});
    await this.closeCurrent();
    this.setState('stopped');
  }

  /** Closes the client and kills a stdio server's process tree (a `npx` wrapper's children too). */
  private async closeCurrent(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const sandboxDone = this.sandboxDone;
    this.client = null;
    this.transport = null;
    this.sandboxDone = undefined;
    if (client) {
      const stdio = loadedMcpSdk()?.StdioClientTransport;
      const pid = stdio !== undefined && transport instanceof stdio ? transport.pid : null;
      if (pid !== null) await killProcessTree(pid, { marker: this.marker, graceMs: 1000 }).catch(() => {});
      await client.close().catch(() => {});
    }
    await sandboxDone?.().catch(() => {});
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.options.onChange();
  }
}

/** Waits for `work`, or throws at once when the task is stopped (the work goes on in the background). */
async function untilAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new McpUnavailableError('the task was stopped');
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new McpUnavailableError('the task was stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpTool[]> {
  // A server without tools (only prompts or resources) is running, with none to offer.
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function describeStartError(error: unknown, config: McpServerConfig): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if (!('url' in config) && code === 'ENOENT') return `could not start "${config.command}": no such program. Check the command, or give its full path.`;
  if ('url' in config && /fetch failed|ECONNREFUSED/i.test(message)) return `could not connect to ${config.url}: ${message}. Is the server running?`;
  if (/connection closed/i.test(message)) return `exited before it answered (${message})`;
  return message;
}
