import { isDeepStrictEqual } from 'node:util';
import type { McpList, McpScope, McpServerConfig, McpServerInfo } from '../../common/mcp';
import { McpConnection, DEFAULT_START_TIMEOUT_MS, type McpSandbox } from './mcpConnection';
import { parseServers, readProjectServers, serverTarget, serverTransport, type ProjectServers } from './mcpConfig';
import { agentToolsOf, type McpAgentTool } from './mcpTools';
import { isProjectTrusted, setProjectTrust } from './projectTrust';
import { uniqueServerSegment } from './toolNames';

export interface UserMcpConfig {
  /** The raw `mcpServers` of settings.json (validated here, server by server). */
  servers: unknown;
  /** Settings-level "always allow" rules. */
  alwaysAllow: readonly string[];
  /** The settings file's path, for error messages. */
  file: string;
}

export interface McpManagerOptions {
  dataDir: string;
  /** Read whenever the servers are (re)loaded. */
  userConfig: () => UserMcpConfig;
  /** `keel run --trust-project-mcp`: start the folder's servers without asking. */
  trustProject?: boolean;
  startTimeoutMs?: number;
  callTimeoutMs?: number;
  onChange?: (list: McpList) => void;
  log?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The workspace's OS sandbox, for servers whose config asks to run in it. */
  sandboxFor?: (workspace: string) => McpSandbox | null;
}

const key = (scope: McpScope, name: string) => `${scope}:${name}`;

/**
 * The MCP servers of the open folder: the person's (settings.json) and, once trusted, the
 * folder's (`.mcp.json`). They start with the workspace without holding it up, stop with it, and
 * restart on demand. A server that fails never fails anything else.
 */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private workspace: string | null = null;
  private project: ProjectServers = { file: null, hash: null, servers: new Map(), errors: [] };
  private userErrors: string[] = [];
  private nameErrors: string[] = [];
  private changeQueued = false;
  /** Set while the last folder's servers stop and this one's are not yet started. */
  private opening: Promise<void> = Promise.resolve();

  constructor(private readonly options: McpManagerOptions) {}

  get workspacePath(): string | null {
    return this.workspace;
  }

  /** Stops the last folder's servers and starts this one's; returns at once, they start in the background. */
  async openWorkspace(workspace: string): Promise<void> {
    this.workspace = workspace;
    this.project = readProjectServers(workspace);
    const opening = this.stopAll().then(() => {
      // Another folder was opened while the old servers stopped: that call starts its own.
      if (this.workspace === workspace) this.sync();
    });
    this.opening = opening;
    await opening;
  }

  /** Whether the folder's `.mcp.json`, as it is now, may start (`--trust-project-mcp` says yes for one run, and is not remembered). */
  private projectTrusted(): boolean {
    if (!this.workspace || !this.project.hash) return false;
    return this.options.trustProject === true || isProjectTrusted(this.options.dataDir, this.workspace, this.project.hash);
  }

  /** The person's answer to "Trust this folder's MCP servers": remembered for this content of the file. */
  async trustProject(trust: boolean): Promise<void> {
    if (!this.workspace) return;
    this.project = readProjectServers(this.workspace);
    setProjectTrust(this.options.dataDir, this.workspace, trust ? this.project.hash : null);
    this.sync();
  }

  /** Settings changed: start new servers, restart changed ones, stop removed ones. */
  reload(): void {
    if (this.workspace) this.project = readProjectServers(this.workspace);
    this.sync();
  }

  private wanted(): Map<string, { scope: McpScope; name: string; config: McpServerConfig }> {
    const user = this.readUser();
    const wanted = new Map<string, { scope: McpScope; name: string; config: McpServerConfig }>();
    for (const [name, config] of user.servers) wanted.set(key('user', name), { scope: 'user', name, config });
    this.nameErrors = [];
    if (this.projectTrusted()) {
      for (const [name, config] of this.project.servers) {
        if (user.servers.has(name)) {
          this.nameErrors.push(
            `${this.project.file}: mcpServers.${name}: a server of your settings has the same name, so this one is not started. Rename one of them.`,
          );
          continue;
        }
        wanted.set(key('project', name), { scope: 'project', name, config });
      }
    }
    return wanted;
  }

  private readUser(): { servers: Map<string, McpServerConfig> } {
    try {
      const config = this.options.userConfig();
      const parsed = parseServers(config.servers, config.file);
      this.userErrors = parsed.errors;
      return parsed;
    } catch (error) {
      this.userErrors = [(error as Error).message];
      return { servers: new Map() };
    }
  }

  private sync(): void {
    const workspace = this.workspace;
    if (!workspace) return;
    const wanted = this.wanted();
    for (const [id, connection] of this.connections) {
      const want = wanted.get(id);
      if (!want || !isDeepStrictEqual(want.config, connection.options.config)) {
        this.connections.delete(id);
        void connection.stop().then(() => this.changed());
      }
    }
    for (const [id, want] of wanted) {
      if (this.connections.has(id)) continue;
      const segments = new Set([...this.connections.values()].map((c) => c.segment));
      const connection = new McpConnection({
        ...want,
        segment: uniqueServerSegment(want.name, segments),
        workspace,
        startTimeoutMs: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        onChange: () => this.changed(),
        ...(this.options.log ? { log: this.options.log } : {}),
        ...(this.options.env ? { env: this.options.env } : {}),
        ...(this.options.sandboxFor ? { sandbox: () => this.options.sandboxFor?.(workspace) ?? null } : {}),
      });
      this.connections.set(id, connection);
      void connection.start();
    }
    this.changed();
  }

  /** Restarts one server (the window's Restart button). */
  async restart(scope: McpScope, name: string): Promise<boolean> {
    const connection = this.connections.get(key(scope, name));
    if (!connection) return false;
    await connection.start();
    return true;
  }

  /**
   * The tools of every server that listed them (a crashed one's too: calling it restarts it).
   * Waits first, at most `waitMs` and never past a Stop, for servers still starting.
   */
  async tools(waitMs = 0, signal?: AbortSignal): Promise<McpAgentTool[]> {
    await this.opening;
    const starting = [...this.connections.values()].filter((c) => c.state === 'starting');
    if (starting.length > 0 && waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort = () => {};
      await Promise.race([
        Promise.all(starting.map((c) => c.settled())),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitMs);
          onAbort = () => resolve();
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    return [...this.connections.values()].flatMap((c) => agentToolsOf(c, this.options.callTimeoutMs ? { callTimeoutMs: this.options.callTimeoutMs } : {}));
  }

  /** Settings-level "always allow" rules. */
  alwaysAllowed(): string[] {
    try {
      return [...this.options.userConfig().alwaysAllow];
    } catch {
      return [];
    }
  }

  list(): McpList {
    const servers: McpServerInfo[] = [...this.connections.values()].map((c) => info(c));
    // The folder's servers that wait for the person's trust are shown, not started.
    if (!this.projectTrusted()) {
      for (const [name, config] of this.project.servers) {
        servers.push({
          name,
          scope: 'project',
          transport: serverTransport(config),
          target: serverTarget(config),
          config: { ...config },
          state: 'untrusted',
          tools: [],
        });
      }
    }
    return {
      servers,
      configErrors: [...this.userErrors, ...this.project.errors, ...this.nameErrors],
      project: { file: this.project.file, trusted: this.projectTrusted(), serverNames: [...this.project.servers.keys()] },
      alwaysAllowed: this.alwaysAllowed(),
    };
  }

  private changed(): void {
    // Several servers change state at once at startup: one event per tick is enough.
    if (this.changeQueued || !this.options.onChange) return;
    this.changeQueued = true;
    queueMicrotask(() => {
      this.changeQueued = false;
      this.options.onChange?.(this.list());
    });
  }

  private async stopAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.stop()));
  }

  /** Stops every server and its process tree (the workspace closes, or Keel quits). */
  async dispose(): Promise<void> {
    this.workspace = null;
    await this.stopAll();
  }
}

function info(connection: McpConnection): McpServerInfo {
  const { name, scope, config } = connection.options;
  const tools = agentToolsOf(connection).map((tool) => ({
    name: tool.mcp.tool,
    modelName: tool.name,
    description: connection.tools.find((t) => t.name === tool.mcp.tool)?.description ?? '',
  }));
  const tail = connection.stderrTail;
  return {
    name,
    scope,
    transport: serverTransport(config),
    target: serverTarget(config),
    config: { ...config },
    state: connection.state,
    ...(connection.error ? { error: connection.error } : {}),
    ...(tail ? { stderrTail: tail } : {}),
    tools,
  };
}
