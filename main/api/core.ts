import { join } from 'node:path';
import type { ApprovalMode } from '../../common/approvals';
import type { EventChannel, EventPayload, WorkspaceInfo } from '../../common/contract';
import { ErrorCodes } from '../../common/contract';
import { fail, ok, type Result } from '../../common/result';
import { DisposableStore, type Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import { Agent, type AgentOptions } from '../agent/agent';
import { CatalogueCache, MODEL_CATALOGUE_FILE } from '../models/catalogueCache';
import { createDelegateTool, helperDelegateRefusal } from '../helpers/delegateTool';
import { HelperPool } from '../helpers/helperPool';
import { helperSecrets } from '../helpers/helperSecrets';
import { helperWorktrees } from '../helpers/helperWorktrees';
import { readHelperSettings } from '../settings/helperSettings';
import { ModelCatalogue } from '../models/modelCatalogue';
import { ChangeCleanup } from '../changes/changeCleanup';
import { ChangeTracker } from '../changes/changeTracker';
import { ImageCleanup } from '../images/imageCleanup';
import type { ModelSettings } from '../settings/modelSettings';
import { SettingsService, settingsFileKeyStore } from '../settings/settingsService';
import { rememberFolder } from '../session/recentFolders';
import { SessionInUseError, WorkspaceError, WorkspaceSession, type OpenSessionOptions } from '../session/workspaceSession';
import { TerminalManager, type TerminalOutputListener } from '../terminal/terminalManager';
import type { Handlers } from './dispatch';
import type { CoreOptions } from './coreOptions';
import type { HandlerContext } from './handlerContext';
import { LiveAnswerTracker } from './liveAnswer';
import { LiveCallsTracker } from './liveCalls';
import { snapshot, workspaceInfo } from './snapshots';
import { agentHandlers } from './handlers/agentHandlers';
import { attachmentHandlers } from './handlers/attachmentHandlers';
import { changesHandlers } from './handlers/changesHandlers';
import { pasteHandlers } from './handlers/pasteHandlers';
import { planHandlers } from './handlers/planHandlers';
import { sessionHandlers } from './handlers/sessionHandlers';
import { settingsHandlers } from './handlers/settingsHandlers';
import { terminalHandlers } from './handlers/terminalHandlers';
import { workspaceHandlers } from './handlers/workspaceHandlers';
import { loginShellPath } from '../platform/loginEnvironment';
import { mcpHandlers } from './handlers/mcpHandlers';
import { helperHandlers } from './handlers/helperHandlers';
import { DEFAULT_START_TIMEOUT_MS } from '../mcp/mcpConnection';
import { McpManager } from '../mcp/mcpManager';
import { readSettingsFile, settingsPath } from '../settings/modelSettings';
import { setMcpAlwaysAllowed } from '../settings/mcpSettings';
import { homedir } from 'node:os';
import type { SandboxSetting } from '../../common/sandbox';
import { sweepLeftovers } from '../sandbox/leftovers';
import { resolveSandboxSetting } from '../sandbox/sandboxSetting';
import { secretPaths } from '../sandbox/secretPaths';
import { WorkspaceSandbox } from '../sandbox/workspaceSandbox';
import { modelHandlers } from './handlers/modelHandlers';
import type { ModelProfileView } from '../../common/modelCapabilities';
import { hostOfNetworkRule, listedNetworkRules, sessionNetworkPolicy } from './sessionNetwork';
import type { NetworkPolicy } from '../network/networkPolicy';
import { listedNetworkHosts } from '../settings/networkSettings';
import { warmSearchWorkers } from '../tools/search/workerPool';

/** An event of the contract, narrowed by its channel. */
export type CoreEvent = { [E in EventChannel]: { channel: E; payload: EventPayload<E> } }[EventChannel];
type EventListener = (event: CoreEvent) => void;

export type { CoreOptions } from './coreOptions';

const MCP_WINDOW_WAIT_MS = 10_000;

/**
 * What every host serves: the open workspace session, its agent, and the contract's handlers
 * over them. Knows nothing of Electron or WebSockets; hosts subscribe to its events and call
 * `handlers`.
 */
export class KeelCore implements HandlerContext {
  private session: WorkspaceSession | null = null;
  private agent: Agent | null = null;
  private liveCalls: LiveCallsTracker | null = null;
  private liveAnswer: LiveAnswerTracker | null = null;
  private changes: ChangeTracker | null = null;
  private sandbox: WorkspaceSandbox | null = null;
  /** Helpers' own sandboxes (one per worktree), while their helpers work. */
  private readonly helperSandboxes = new Set<WorkspaceSandbox>();
  /** The open session's network policy (the sandbox's proxy asks it about hosts nobody listed). */
  private network: NetworkPolicy | null = null;
  /** The open session's helpers (the agent's delegate calls). */
  private helperPool: HelperPool | null = null;
  private readonly events: Emitter<[CoreEvent]>;
  private readonly terminalOutput: Emitter<Parameters<TerminalOutputListener>>;
  /** What the open session's agent, plan and changes are subscribed to. */
  private sessionSubscriptions = new DisposableStore();
  readonly settings: SettingsService;
  readonly handlers: Handlers;
  /** The person's shells in tabs; they start in the open workspace. */
  readonly terminals: TerminalManager;
  /** The MCP servers of the open folder and of the person's settings. */
  readonly mcp: McpManager;
  readonly imageCleanup: ImageCleanup;
  readonly changeCleanup: ChangeCleanup;
  /** The endpoint's models, fetched in the background when the endpoint, key or model changes. */
  readonly models: ModelCatalogue;

  constructor(readonly options: CoreOptions) {
    const onListenerError = (error: unknown) =>
      options.log ? options.log(`warning: an event listener failed: ${error instanceof Error ? error.message : String(error)}`) : console.error(error);
    this.events = new Emitter({ onListenerError });
    this.terminalOutput = new Emitter({ onListenerError });
    this.settings = new SettingsService(options.dataDir, options.keyStore ?? settingsFileKeyStore(options.dataDir), options.settingsEnv);
    this.models = new ModelCatalogue(options.log, new CatalogueCache(join(options.dataDir, MODEL_CATALOGUE_FILE), options.log));
    this.terminals = new TerminalManager({
      emit: (event, payload) => this.emit(event, payload),
      output: (id, seq, data) => this.terminalOutput.fire(id, seq, data),
      workspace: () => this.session?.workspace ?? null,
      log: options.log,
    });
    // Started now, so the first command and the first terminal need not wait for the login shell.
    void loginShellPath({ log: options.log });
    this.mcp = new McpManager({
      dataDir: options.dataDir,
      userConfig: () => {
        const file = readSettingsFile(options.dataDir);
        return { servers: file.mcpServers, alwaysAllow: file.mcpAlwaysAllow ?? [], file: settingsPath(options.dataDir) };
      },
      trustProject: options.trustProjectMcp ?? false,
      startTimeoutMs: options.mcpStartTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      onChange: (list) => this.emit('mcp.changed', list),
      ...(options.log ? { log: options.log } : {}),
      // The open folder's own sandbox (the same helper as the agent's commands); none for a folder no longer open.
      sandboxFor: (workspace) => (this.sandbox?.workspace === workspace ? this.sandbox : null),
    });
    this.imageCleanup = new ImageCleanup(options.dataDir, { log: options.log });
    this.changeCleanup = new ChangeCleanup(options.dataDir, { log: options.log });
    this.handlers = {
      ...workspaceHandlers(this),
      ...planHandlers(this),
      ...agentHandlers(this),
      ...sessionHandlers(this),
      ...settingsHandlers(this),
      ...terminalHandlers(this),
      ...changesHandlers(this),
      ...pasteHandlers(this),
      ...attachmentHandlers(this),
      ...mcpHandlers(this),
      ...modelHandlers(this),
      ...helperHandlers({ helpers: () => this.helperPool }),
    };
  }

  /** Loads what needs async work (the key from the OS secret store). */
  async init(): Promise<void> {
    await this.settings.init();
    // Pictures of sessions deleted just before a crash or quit; costs nothing when none are noted.
    void this.imageCleanup.sweep();
    // Saved copies of files of sessions deleted just before a crash, or by a Keel that kept them.
    void this.changeCleanup.sweep();
    // Placeholder files and bridge processes a crashed Keel's sandbox left behind.
    await sweepLeftovers(this.options.dataDir).then(
      (swept) => {
        if (swept.placeholders.length + swept.processes.length > 0)
          this.options.log?.(
            `sandbox: removed ${swept.placeholders.length} placeholder file(s) and ${swept.processes.length} process(es) left by an earlier run`,
          );
      },
      (error: unknown) => this.options.log?.(`warning: could not sweep the sandbox's leftovers: ${(error as Error).message}`),
    );
  }

  /** For the host's quit: kills every terminal's process tree. */
  async dispose(): Promise<void> {
    await this.agent?.stopAndWait();
    await this.helperPool?.dispose();
    this.imageCleanup.dispose();
    await Promise.all([this.terminals.dispose(), this.mcp.dispose(), this.sandbox?.dispose(), ...[...this.helperSandboxes].map((s) => s.dispose())]);
    this.session?.close();
    this.changes?.close();
  }

  get currentSession(): WorkspaceSession | null {
    return this.session;
  }

  get currentAgent(): Agent | null {
    return this.agent;
  }

  get currentLiveCalls(): LiveCallsTracker | null {
    return this.liveCalls;
  }

  get currentLiveAnswer(): LiveAnswerTracker | null {
    return this.liveAnswer;
  }

  /** What the agent changed in the open session's files (the Changes view). */
  get currentChanges(): ChangeTracker | null {
    return this.changes;
  }

  /** Terminal output, as bytes: each host carries it to its windows without JSON. */
  onTerminalOutput(listener: TerminalOutputListener): Disposable {
    return this.terminalOutput.on(listener);
  }

  onEvent(listener: EventListener): Disposable {
    return this.events.on(listener);
  }

  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    this.events.fire({ channel: event, payload } as CoreEvent);
  }

  openWorkspace(folder: string, options: OpenSessionOptions = {}): Result<WorkspaceInfo> {
    if (this.agent?.running) {
      return fail(ErrorCodes.taskRunning, 'A task is running in this session. Stop it before switching folder or session.');
    }
    let session: WorkspaceSession;
    try {
      session = WorkspaceSession.open(this.options.dataDir, folder, options);
    } catch (error) {
      if (error instanceof SessionInUseError) return fail(ErrorCodes.sessionInUse, error.message);
      if (error instanceof WorkspaceError) return fail(ErrorCodes.workspaceNotFound, error.message);
      throw error;
    }
    for (const warning of session.warnings) this.options.log?.(`warning: ${warning}`);
    const changes = new ChangeTracker({ dataDir: this.options.dataDir, sessionId: session.id, workspace: session.workspace, log: this.options.log });
    for (const warning of changes.warnings) this.options.log?.(`warning: ${warning}`);
    this.sessionSubscriptions.dispose();
    void this.helperPool?.dispose();
    this.session?.close();
    this.changes?.close();
    this.session = session;
    this.changes = changes;
    const networkEnv = this.options.settingsEnv ?? process.env;
    const network = sessionNetworkPolicy(session, {
      dataDir: this.options.dataDir,
      env: networkEnv,
      publicHostsFreely: () => this.approvalMode(session) === 'full_auto',
      log: this.options.log,
      resolve: this.options.resolveHost,
    });
    this.network = network;
    const shared = this.agentOptions(session, network);
    const tools = () => this.options.tools?.() ?? [];
    const sandbox = this.sandboxFor(session.workspace);
    const helpers: HelperPool = new HelperPool({
      session,
      worktrees: () => helperWorktrees(session.workspace, this.options.dataDir, this.options.log),
      settings: () => readHelperSettings(this.options.dataDir),
      changes,
      // A helper gets the main agent's tools but delegate, in its own session; its cards wait with the main agent's.
      createAgent: (child, id, changes, inPlace, place): Agent => {
        // A helper in its own worktree (under the data folder, otherwise secret) gets a sandbox of
        // its own, confined to that worktree, under the same setting as the folder's; it goes
        // when the helper's task ends.
        const own = inPlace ? null : this.helperSandbox(child.workspace);
        const helperAgent = new Agent({
          ...shared,
          session: child,
          tools: [...tools(), helperDelegateRefusal],
          ...(changes ? { changes } : {}),
          ...(own ? { secrets: helperSecrets(shared.secrets ?? [], this.options.dataDir), sandbox: own } : { sandbox }),
          helper: { id, approvals: agent.approvals },
          ...(place ? { workspaceReady: place.ready, instructionsFolder: place.instructionsFolder } : {}),
        });
        if (own) {
          const undo = helperAgent.on((event) => {
            if (event.type !== 'task_finished') return;
            undo();
            this.helperSandboxes.delete(own);
            void own.dispose();
          });
        }
        return helperAgent;
      },
      changed: (info) => this.emit('helper.changed', info),
      event: (helper, event) => this.emit('helper.event', { helper, event }),
      log: this.options.log,
    });
    const agent: Agent = new Agent({
      ...shared,
      session,
      tools: [...tools(), createDelegateTool((input, signal) => helpers.delegate(input, signal))],
      changes,
      sandbox,
    });
    this.helperPool = helpers;
    this.refreshModels();
    this.agent = agent;
    const liveCalls = new LiveCallsTracker();
    this.liveCalls = liveCalls;
    const liveAnswer = new LiveAnswerTracker();
    this.liveAnswer = liveAnswer;
    // A new session in the same folder keeps its servers running.
    if (this.mcp.workspacePath !== session.workspace) void this.mcp.openWorkspace(session.workspace);
    const subscriptions = new DisposableStore();
    subscriptions.add(session.plan.onChange(() => this.emit('plan.changed', snapshot(session.plan))));
    subscriptions.add(
      agent.on((event) => {
        liveCalls.observe(event);
        this.emit('agent.event', { ...event, seq: liveAnswer.observe(event) });
      }),
    );
    subscriptions.add(changes.onChange(() => this.emit('changes.changed', {})));
    this.sessionSubscriptions = subscriptions;
    try {
      rememberFolder(this.options.dataDir, session.workspace);
    } catch (error) {
      this.options.log?.(`warning: could not update the recent folders list: ${(error as Error).message}`);
    }
    if (this.options.warmSearch) warmSearchWorkers();
    const info = workspaceInfo(session);
    this.emit('workspace.changed', info);
    this.emit('plan.changed', snapshot(session.plan));
    this.emit('changes.changed', {});
    return ok(info);
  }

  /** What every agent of the session is built with, the main agent's and its helpers'. */
  private agentOptions(session: WorkspaceSession, network: NetworkPolicy): Omit<AgentOptions, 'session' | 'tools'> {
    const networkEnv = this.options.settingsEnv ?? process.env;
    return {
      settings: () => this.modelSettings(),
      approvalMode: () => this.approvalMode(session),
      dataDir: this.options.dataDir,
      // A headless run has one task: it waits for its servers as long as they may take to start.
      // The window waits a little for a server still starting, then goes on without it.
      moreTools: (signal) => this.mcp.tools(this.options.headless ? (this.options.mcpStartTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) : MCP_WINDOW_WAIT_MS, signal),
      alwaysAllowed: () => [...this.mcp.alwaysAllowed(), ...listedNetworkRules(this.options.dataDir, networkEnv)],
      allowAlways: (rule) => {
        const host = hostOfNetworkRule(rule);
        if (host !== null) return network.allowAlways(host);
        setMcpAlwaysAllowed(this.options.dataDir, rule, true);
        this.emit('mcp.changed', this.mcp.list());
      },
      secrets: secretPaths({ home: homedir(), dataDir: this.options.dataDir }),
      models: this.models,
      network,
    };
  }

  /** The open workspace's sandbox: kept while the folder stays open, started (checked) at once. */
  private sandboxFor(workspace: string): WorkspaceSandbox {
    if (this.sandbox?.workspace === workspace) return this.sandbox;
    void this.sandbox?.dispose();
    const sandbox = this.newSandbox(workspace);
    this.sandbox = sandbox;
    sandbox.onStatus((status) => {
      if (this.sandbox === sandbox) this.emit('sandbox.changed', status);
    });
    this.emit('sandbox.changed', sandbox.status);
    return sandbox;
  }

  /**
   * A helper's worktree's own sandbox: commands confined to the worktree, the data folder's other
   * entries still secret. Disposed when its helper's task ends (or with the core).
   */
  private helperSandbox(worktree: string): WorkspaceSandbox {
    // Started by its helper's first command (or approval), not now: its worktree may still be
    // checked out, and a helper that runs no command costs no sandbox process.
    const sandbox = this.newSandbox(worktree, (secrets) => helperSecrets(secrets, this.options.dataDir), false);
    this.helperSandboxes.add(sandbox);
    return sandbox;
  }

  private newSandbox(workspace: string, adjustSecrets?: (secrets: readonly string[]) => string[], startNow = true): WorkspaceSandbox {
    let setting: SandboxSetting;
    try {
      setting = resolveSandboxSetting(readSettingsFile(this.options.dataDir).sandbox, this.options.settingsEnv ?? process.env);
    } catch (error) {
      // A value Keel does not understand must not leave commands unconfined: it asks for the sandbox.
      this.options.log?.(`warning: ${(error as Error).message} Using "required".`);
      setting = 'required';
    }
    const sandbox = new WorkspaceSandbox({
      workspace,
      dataDir: this.options.dataDir,
      setting,
      log: this.options.log,
      ...(adjustSecrets ? { adjustSecrets } : {}),
      ...(this.options.sandboxLauncher ? { launchHelper: this.options.sandboxLauncher } : {}),
      // Commands reach only hosts someone allowed (listed, or for this session): never "any public host".
      network: {
        listed: () => listedNetworkHosts(this.options.dataDir, this.options.settingsEnv ?? process.env),
        allows: (host) => this.network?.isAllowed(host) ?? false,
      },
    });
    if (startNow) this.startSandbox(sandbox);
    return sandbox;
  }

  private startSandbox(sandbox: WorkspaceSandbox): void {
    void sandbox.start().then((status) => {
      // A short task can end, and close the sandbox, before its check does: nothing failed then.
      if (status.state === 'unavailable' && !sandbox.closed) this.options.log?.(`warning: sandbox unavailable: ${status.why}`);
    });
  }

  get currentSandbox(): WorkspaceSandbox | null {
    return this.sandbox;
  }

  /** Headless runs have nobody to ask; otherwise the session's own mode, else the settings' default. */
  approvalMode(session: WorkspaceSession): ApprovalMode {
    return this.options.headless ? 'full_auto' : (session.approvalMode ?? this.settings.view().approvalMode);
  }

  /** Asks the endpoint for its models in the background; a task waits for the answer only a moment. */
  refreshModels(): void {
    let settings: ModelSettings;
    try {
      settings = this.modelSettings();
    } catch {
      return; // a broken settings file is reported where it is read
    }
    // The status bar and Settings hear the catalogue's answer (the effort levels, the models) when it comes.
    void this.models
      .refresh(settings)
      .then(() => this.modelProfile())
      .then((view) => this.emit('model.changed', view))
      .catch(() => undefined);
  }

  runSettings(): ModelSettings {
    return this.models.profileNow(this.modelSettings(), this.agent?.effort.chosen).settings;
  }

  async modelProfile(): Promise<ModelProfileView> {
    const agent = this.agent;
    if (agent) return (await agent.profile()).view;
    return (await this.models.profile(this.modelSettings())).view;
  }

  modelSettings(): ModelSettings {
    return this.options.settings?.() ?? this.settings.modelSettings();
  }
}
