import type { ApprovalMode } from '../../common/approvals';
import type { EventChannel, EventPayload, WorkspaceInfo } from '../../common/contract';
import type { Result } from '../../common/result';
import type { Agent } from '../agent/agent';
import type { ChangeCleanup } from '../changes/changeCleanup';
import type { ChangeTracker } from '../changes/changeTracker';
import type { ImageCleanup } from '../images/imageCleanup';
import type { McpManager } from '../mcp/mcpManager';
import type { ModelProfileView } from '../../common/modelCapabilities';
import type { WorkspaceSandbox } from '../sandbox/workspaceSandbox';
import type { SettingsService } from '../settings/settingsService';
import type { ModelSettings } from '../settings/modelSettings';
import type { OpenSessionOptions, WorkspaceSession } from '../session/workspaceSession';
import type { TerminalManager } from '../terminal/terminalManager';
import type { CoreOptions } from './coreOptions';
import type { LiveAnswerTracker } from './liveAnswer';
import type { LiveCallsTracker } from './liveCalls';

/**
 * What the contract's handlers may use of the core (KeelCore implements it). Each handler takes
 * only the part it needs (a `Pick` of this), so a handler neither imports the core nor sees more
 * of it than its job.
 */
export interface HandlerContext {
  readonly options: CoreOptions;
  readonly currentSession: WorkspaceSession | null;
  readonly currentAgent: Agent | null;
  /** The open session's tool calls of its running or last task, for a window that (re)loads. */
  readonly currentLiveCalls: LiveCallsTracker | null;
  /** The open session's agent events, numbered, and the answer streaming now (not in the transcript yet). */
  readonly currentLiveAnswer: LiveAnswerTracker | null;
  readonly currentChanges: ChangeTracker | null;
  /** The open folder's sandbox for the agent's commands. */
  readonly currentSandbox: WorkspaceSandbox | null;
  readonly settings: SettingsService;
  readonly terminals: TerminalManager;
  readonly mcp: McpManager;
  /** Removes the pictures of deleted sessions that no other session shows. */
  readonly imageCleanup: ImageCleanup;
  /** Erases the saved copies of files (for undo) of deleted sessions. */
  readonly changeCleanup: ChangeCleanup;
  openWorkspace(folder: string, options?: OpenSessionOptions): Result<WorkspaceInfo>;
  approvalMode(session: WorkspaceSession): ApprovalMode;
  /** Tells every open window (the hosts carry core events to them). */
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
  modelSettings(): ModelSettings;
  /** The settings the next task runs with: the model's window and max tokens from the catalogue applied; never waits. */
  runSettings(): ModelSettings;
  /** The endpoint, key or model may have changed: ask for its catalogue again, in the background. */
  refreshModels(): void;
  /** The model as the next task would use it (the open session's effort included); waits a moment for a first catalogue. */
  modelProfile(): Promise<ModelProfileView>;
}
