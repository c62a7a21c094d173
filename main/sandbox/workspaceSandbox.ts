import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import type { SandboxSetting, SandboxStatus } from '../../common/sandbox';
import { hostOnlyEnvironment } from './commandEnvironment';
import type { HelperReply, HelperRequest } from './helperProtocol';
import { locateHelperFile } from './helperFile';
import { forkNodeHelper, type HelperLauncher, type HelperProcess } from './helperProcess';
import { HELPER_MARKER_VARIABLE, removeHelperRecord, writeHelperRecord } from './leftovers';
import { placeholderExcludes } from './placeholderExcludes';
import { placeholderCandidates, removePlaceholders } from './placeholders';
import { sandboxPolicy } from './sandboxPolicy';
import { secretPaths } from './secretPaths';
import { linkedWorktreeGitPaths, linkedWorktreePointers } from './worktreeGitPaths';

export interface WorkspaceSandboxOptions {
  workspace: string;
  dataDir: string;
  setting: SandboxSetting;
  /** The one network policy: which hosts commands may reach. Absent: none. */
  network?: SandboxNetwork;
  platform?: NodeJS.Platform;
  home?: string;
  /** Where sessions' temp folders and the tool caches go; a Keel-owned folder under the system's temp by default. */
  scratchRoot?: string;
  /** Narrows the secrets for a workspace inside one of them (a helper's worktree lives in the data folder). */
  adjustSecrets?: (secrets: readonly string[]) => string[];
  log?: (message: string) => void;
  /** How the helper process is started; a Node fork by default (the Electron app passes its utility processes). */
  launchHelper?: HelperLauncher;
}

/** What the sandbox asks of the network policy. */
export interface SandboxNetwork {
  /** Hosts and addresses the person listed (settings network.allow, KEEL_NETWORK_ALLOW). */
  listed(): readonly string[];
  /** Whether a host no list covers may be reached now (allowed for the session). */
  allows(host: string): boolean;
}

/** How to run one command inside the sandbox: `bash -c <wrapped>`, the wrapped line one argument. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /** Variables the command needs inside: its temp folder and the package caches. */
  env: Record<string, string>;
  /** After the command ended: removes its placeholder files; says which hosts were refused meanwhile. */
  done(): Promise<{ refusedHosts: string[] }>;
}

type Waiter = (reply: HelperReply) => void;
type RequestBody = HelperRequest extends infer R ? (R extends HelperRequest ? Omit<R, 'id'> : never) : never;

const START_TIMEOUT_MS = 20_000;

/**
 * The OS sandbox for one workspace's agent commands: a helper process (see sandboxHelper) that
 * holds the runtime and its proxies, started in the workspace, and checked for real at start
 * with a wrapped `true`. The status it reaches is what the status bar shows and what the approval
 * gate and the bash tool follow.
 */
export class WorkspaceSandbox {
  private child: HelperProcess | undefined;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();
  private current: SandboxStatus = { state: 'checking' };
  private record: string | undefined;
  private started: Promise<SandboxStatus> | undefined;
  private closedByOwner = false;
  /** Wrapped commands not done yet, and the placeholders they may have left (swept when none runs). */
  private runningCommands = 0;
  private readonly placeholdersToSweep = new Set<string>();
  private readonly statusChanged = new Emitter<[SandboxStatus]>();
  private readonly refusedHosts = new Set<string>();
  readonly scratchRoot: string;

  constructor(private readonly options: WorkspaceSandboxOptions) {
    this.scratchRoot = options.scratchRoot ?? path.join(tmpdir(), `keel-sandbox-${process.getuid?.() ?? 'user'}`);
  }

  get status(): SandboxStatus {
    return this.current;
  }

  get required(): boolean {
    return this.options.setting === 'required';
  }

  get workspace(): string {
    return this.options.workspace;
  }

  /** Whether its owner has closed it; a check still running then ends unavailable, and failed nothing. */
  get closed(): boolean {
    return this.closedByOwner;
  }

  /** Listens for status changes; returns the function that stops listening. */
  onStatus(listener: (status: SandboxStatus) => void): Disposable {
    return this.statusChanged.on(listener);
  }

  private setStatus(status: SandboxStatus): SandboxStatus {
    this.current = status;
    this.statusChanged.fire(status);
    return status;
  }

  /** Starts and checks the sandbox once; later calls get the same answer. */
  start(): Promise<SandboxStatus> {
    this.started ??= this.startOnce();
    return this.started;
  }

  private async startOnce(): Promise<SandboxStatus> {
    const { setting } = this.options;
    const platform = this.options.platform ?? process.platform;
    if (setting === 'off') return this.setStatus({ state: 'off' });
    if (platform === 'win32') {
      return this.setStatus(setting === 'required' ? { state: 'unavailable', why: 'no sandbox on Windows yet', required: true } : { state: 'unsandboxed' });
    }
    try {
      await this.launch();
      await this.request({ type: 'init', config: this.policy() });
      const { warnings = [] } = await this.request({ type: 'check' });
      const gaps = warnings.slice(0, 10).map((warning) => warning.slice(0, 500));
      if (gaps.length > 0) this.options.log?.(`warning: the sandbox cannot restrict everything here: ${gaps.join('; ')}`);
      return this.setStatus({ state: 'on', via: platform === 'darwin' ? 'seatbelt' : 'bwrap', ...(gaps.length > 0 ? { gaps } : {}) });
    } catch (error) {
      await this.release();
      return this.setStatus({ state: 'unavailable', why: error instanceof Error ? error.message : String(error), required: setting === 'required' });
    }
  }

  private policy() {
    const home = this.options.home ?? homedir();
    const secrets = secretPaths({ home, dataDir: this.options.dataDir });
    return sandboxPolicy({
      workspace: this.options.workspace,
      // In a linked worktree (a helper's), `git add` and `git commit` write its admin folder, objects and refs.
      writable: [this.scratchRoot, ...linkedWorktreeGitPaths(this.options.workspace)],
      readOnly: linkedWorktreePointers(this.options.workspace),
      secrets: this.options.adjustSecrets?.(secrets) ?? secrets,
      allowedHosts: this.options.network?.listed() ?? [],
    });
  }

  private async launch(): Promise<void> {
    const helper = locateHelperFile();
    const marker = randomUUID();
    mkdirSync(this.scratchRoot, { recursive: true, mode: 0o700 });
    this.record = writeHelperRecord(this.options.dataDir, {
      ownerPid: process.pid,
      marker,
      workspace: this.options.workspace,
      placeholders: placeholderCandidates(this.options.workspace),
    });
    const launchHelper = this.options.launchHelper ?? forkNodeHelper;
    const child = launchHelper(helper, { cwd: this.options.workspace, env: { ...hostOnlyEnvironment(process.env), [HELPER_MARKER_VARIABLE]: marker } });
    this.child = child;
    let stderr = '';
    child.onStderr((chunk) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.onMessage((message) => {
      if ('type' in message) {
        const allow = this.options.network?.allows(message.host) ?? false;
        if (!allow) this.refusedHosts.add(message.port ? `${message.host}:${message.port}` : message.host);
        void this.request({ type: 'answer', askId: message.askId, allow }).catch(() => undefined);
        return;
      }
      const reply = message;
      const waiter = this.waiters.get(reply.id);
      this.waiters.delete(reply.id);
      waiter?.(reply);
    });
    child.onExit((ended) => {
      if (this.child === child) this.child = undefined;
      const why = `the sandbox helper ended (${ended})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-2).join(' ')}` : ''}`;
      for (const [id, waiter] of this.waiters) waiter({ id, ok: false, error: why });
      this.waiters.clear();
      if (this.current.state === 'on') this.setStatus({ state: 'unavailable', why, required: this.options.setting === 'required' });
    });
  }

  private request(message: RequestBody): Promise<Extract<HelperReply, { ok: true }>> {
    const child = this.child;
    if (!child?.running) return Promise.reject(new Error('the sandbox helper is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer =
        message.type === 'init' || message.type === 'check'
          ? setTimeout(() => this.waiters.get(id)?.({ id, ok: false, error: 'the sandbox check timed out' }), START_TIMEOUT_MS)
          : undefined;
      this.waiters.set(id, (reply) => {
        clearTimeout(timer);
        this.waiters.delete(id);
        if (reply.ok) resolve(reply);
        else reject(new Error(reply.error));
      });
      child.send({ ...message, id } as HelperRequest);
    });
  }

  /** The session's own temp folder, made on first use. */
  tempFolder(sessionId: string): string {
    const dir = path.join(this.scratchRoot, 'tmp', sessionId.replace(/[^\w.-]/g, '_'));
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Keel's writable cache for package managers run inside (npm, pip, cargo…). */
  cacheFolder(): string {
    const dir = path.join(this.scratchRoot, 'cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Wraps one command; only when the status is `on`. */
  async wrap(command: string, sessionId: string): Promise<SandboxedCommand> {
    const commandId = randomUUID();
    const tmpDir = this.tempFolder(sessionId);
    const candidates = placeholderCandidates(this.options.workspace);
    this.refusedHosts.clear();
    const allowedHosts = [...(this.options.network?.listed() ?? [])];
    const excludesFile = path.join(tmpDir, `.keel-git-excludes-${commandId}`);
    // At once: the helper wraps (a ripgrep scan of the workspace) while git here names the person's excludes.
    const [wrapping, excluding] = await Promise.allSettled([
      this.request({ type: 'wrap', command, commandId, tmpDir, allowedHosts }),
      placeholderExcludes(this.options.workspace, candidates, excludesFile),
    ]);
    const wrapped = wrapping.status === 'fulfilled' ? wrapping.value.wrapped : undefined;
    if (wrapped === undefined || excluding.status === 'rejected') {
      // Nothing runs: the runtime's count of running commands and the excludes file are put back.
      if (wrapped !== undefined) await this.request({ type: 'after', commandId }).catch(() => undefined);
      await rm(excludesFile, { force: true });
      if (wrapping.status === 'rejected') throw wrapping.reason;
      if (excluding.status === 'rejected') throw excluding.reason;
      throw new Error('the sandbox helper gave no command');
    }
    const cache = this.cacheFolder();
    this.runningCommands++;
    for (const candidate of candidates) this.placeholdersToSweep.add(candidate);
    let finished = false;
    return {
      file: '/bin/bash',
      args: ['-c', wrapped],
      env: { ...cacheEnvironment(cache, tmpDir), ...excluding.value },
      done: async () => {
        if (!finished) {
          finished = true;
          await this.request({ type: 'after', commandId }).catch(() => undefined);
          // The runtime removes its own mount points; a run it lost track of (killed mid-way) is
          // swept here, but only by the last command to end: a placeholder another command still
          // runs on is its mount point, and removing it there undoes the mount, so that command
          // could write the `.bashrc` it protects.
          if (--this.runningCommands === 0) {
            removePlaceholders([...this.placeholdersToSweep]);
            this.placeholdersToSweep.clear();
          }
        }
        await rm(excludesFile, { force: true });
        return { refusedHosts: [...this.refusedHosts] };
      },
    };
  }

  async dispose(): Promise<void> {
    this.closedByOwner = true;
    await this.release();
  }

  /** Ends the helper (it resets the runtime first) and removes its record. */
  private async release(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const ended = new Promise<void>((resolve) => {
        if (!child.running) resolve();
        else child.onExit(() => resolve());
      });
      // The helper resets the runtime (proxies, bridges, placeholders) and exits.
      child.send({ id: this.nextId++, type: 'shutdown' });
      const timer = setTimeout(() => child.kill(), 3000);
      await ended;
      clearTimeout(timer);
    }
    if (this.record) removeHelperRecord(this.record);
    this.record = undefined;
  }
}

/** Package managers' caches and the temp folder, pointed at places the sandbox lets them write. */
export function cacheEnvironment(cache: string, tmpDir: string): Record<string, string> {
  return {
    TMPDIR: tmpDir,
    npm_config_cache: path.join(cache, 'npm'),
    YARN_CACHE_FOLDER: path.join(cache, 'yarn'),
    PIP_CACHE_DIR: path.join(cache, 'pip'),
    CARGO_HOME: path.join(cache, 'cargo'),
    GOCACHE: path.join(cache, 'go-build'),
    GOMODCACHE: path.join(cache, 'go-mod'),
    XDG_CACHE_HOME: path.join(cache, 'xdg'),
  };
}
