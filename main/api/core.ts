import type { AppInfo, EventChannel, EventPayload, PlanSnapshot, WorkspaceInfo } from '../../common/contract';
import { ErrorCodes } from '../../common/contract';
import { fail, ok, type Result } from '../../common/result';
import { Agent } from '../agent/agent';
import type { AgentTool } from '../agent/toolRunner';
import type { PlanStore } from '../plan/store';
import { readSettingsFile, resolveModelSettings, type ModelSettings } from '../settings/modelSettings';
import { WorkspaceError, WorkspaceSession, type OpenSessionOptions } from '../session/workspaceSession';
import type { Handlers } from './dispatch';

/** An event of the contract, narrowed by its channel. */
export type CoreEvent = { [E in EventChannel]: { channel: E; payload: EventPayload<E> } }[EventChannel];
type EventListener = (event: CoreEvent) => void;

export interface CoreOptions {
  dataDir: string;
  host: AppInfo['host'];
  version: string;
  /** The host's native folder picker, where it has one. */
  chooseFolder?: () => Promise<string | null>;
  /** The workspace tools the agent gets (files, bash); the todo tool is always added. */
  tools?: () => AgentTool[];
  /** Model settings; by default the settings file in dataDir, overridden by the environment. */
  settings?: () => ModelSettings;
  log?: (message: string) => void;
}

/**
 * What every host serves: the open workspace session and the contract's handlers over it.
 * Knows nothing of Electron or WebSockets; hosts subscribe to its events and call `handlers`.
 */
export class KeelCore {
  private session: WorkspaceSession | null = null;
  private agent: Agent | null = null;
  private readonly listeners = new Set<EventListener>();
  private unsubscribeSession: (() => void) | null = null;

  constructor(private readonly options: CoreOptions) {}

  get currentSession(): WorkspaceSession | null {
    return this.session;
  }

  get currentAgent(): Agent | null {
    return this.agent;
  }

  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener({ channel: event, payload } as CoreEvent);
  }

  openWorkspace(folder: string, options: OpenSessionOptions = {}): Result<WorkspaceInfo> {
    let session: WorkspaceSession;
    try {
      session = WorkspaceSession.open(this.options.dataDir, folder, options);
    } catch (error) {
      if (error instanceof WorkspaceError) return fail(ErrorCodes.workspaceNotFound, error.message);
      throw error;
    }
    for (const warning of session.warnings) this.options.log?.(`warning: ${warning}`);
    this.agent?.stop();
    this.unsubscribeSession?.();
    this.session = session;
    const agent = new Agent({ session, settings: () => this.modelSettings(), tools: this.options.tools?.() ?? [] });
    this.agent = agent;
    const stopPlan = session.plan.onChange(() => this.emit('plan.changed', snapshot(session.plan)));
    const stopAgent = agent.on((event) => this.emit('agent.event', event));
    this.unsubscribeSession = () => (stopPlan(), stopAgent());
    const info = workspaceInfo(session);
    this.emit('workspace.changed', info);
    this.emit('plan.changed', snapshot(session.plan));
    return ok(info);
  }

  modelSettings(): ModelSettings {
    return this.options.settings?.() ?? resolveModelSettings(readSettingsFile(this.options.dataDir));
  }

  readonly handlers: Handlers = {
    'app.info': () =>
      ok({
        version: this.options.version,
        host: this.options.host,
        dataDir: this.options.dataDir,
        nativeFolderPicker: this.options.chooseFolder !== undefined,
      }),
    'workspace.current': () => ok(this.session ? workspaceInfo(this.session) : null),
    'workspace.open': ({ path }) => this.openWorkspace(path),
    'workspace.choose': async () => {
      if (!this.options.chooseFolder) {
        return fail(ErrorCodes.unsupported, 'This window cannot show a folder picker. Type the folder path instead.');
      }
      const folder = await this.options.chooseFolder();
      return folder === null ? ok(null) : this.openWorkspace(folder);
    },
    'plan.get': () => {
      const session = this.session;
      return session ? ok(snapshot(session.plan)) : ok(emptySnapshot);
    },
    'plan.edit': ({ baseVersion, items }) => {
      const session = this.session;
      if (!session) return fail(ErrorCodes.noWorkspace, 'No folder is open. Open a folder first; its plan is kept with it.');
      const result = session.plan.propose(items, { source: 'user', baseVersion });
      if (result.ok) return ok(snapshot(session.plan));
      if (result.reason === 'conflict') {
        return fail(
          ErrorCodes.planConflict,
          `The plan changed while you were editing it (you edited version ${baseVersion}, it is now version ${session.plan.version}). Your edit was not applied; the board now shows the current plan.`,
          { current: snapshot(session.plan) },
        );
      }
      return fail(ErrorCodes.planInvalid, result.error.message, { problems: result.error.problems });
    },
    'task.send': ({ text }) => {
      const agent = this.agent;
      if (!agent) return fail(ErrorCodes.noWorkspace, 'No folder is open. Open a folder for the agent to work in first.');
      if (agent.running) return fail(ErrorCodes.taskRunning, 'A task is already running. Stop it first, or wait for it to finish.');
      return ok({ taskId: agent.startTask(text).taskId });
    },
    'task.stop': () => {
      const running = this.agent?.running ?? false;
      this.agent?.stop();
      return ok({ stopped: running });
    },
  };
}

const emptySnapshot: PlanSnapshot = { version: 0, source: null, items: [], at: null };

export function snapshot(plan: PlanStore): PlanSnapshot {
  const current = plan.current;
  return current ? { version: current.version, source: current.source, items: current.items, at: current.at } : emptySnapshot;
}

function workspaceInfo(session: WorkspaceSession): WorkspaceInfo {
  return { path: session.workspace, name: session.name, sessionId: session.id };
}
