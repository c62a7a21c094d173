import type Anthropic from '@anthropic-ai/sdk';
import type { ApprovalMode } from '../../common/approvals';
import type { ApprovalBroker } from '../approvals/approvalBroker';
import type { ChangeRecorder } from '../changes/recorder';
import type { PlanView } from '../plan/planView';
import type { CommandSandbox } from '../tools/types';
import type { ModelCatalogue } from '../models/modelCatalogue';
import type { NetworkPolicy } from '../network/networkPolicy';
import type { WorkspaceSession } from '../session/workspaceSession';
import type { ModelSettings } from '../settings/modelSettings';
import type { AgentTool } from './toolRunner';

export interface AgentOptions {
  session: WorkspaceSession;
  /** Read at the start of every task, so changed settings take effect on the next one. */
  settings: () => ModelSettings;
  /** The workspace tools (files, bash); the `todo` tool is added here. */
  tools: readonly AgentTool[];
  createClient?: (settings: ModelSettings) => Anthropic | Promise<Anthropic>;
  /** Read before every tool call. Default full_auto: a headless run has no one to ask. */
  approvalMode?: () => ApprovalMode;
  /** Keeps what each task did to files, for the Changes view and undo. */
  changes?: ChangeRecorder;
  /** The data folder: its AGENTS.md applies to every workspace. */
  dataDir?: string;
  /** Tools that come and go (MCP servers), read before every round. */
  moreTools?: (signal: AbortSignal) => Promise<readonly AgentTool[]>;
  /** Rules allowed for every session (the settings' MCP allow list). */
  alwaysAllowed?: () => Iterable<string>;
  /** "Always allow" on an approval card: keep the rule in the settings. */
  allowAlways?: (rule: string) => void;
  /** What this agent's model has seen of the plan; the session's own agent uses the session's. */
  planView?: PlanView;
  /** The workspace's OS sandbox for commands; absent: commands are not confined. */
  sandbox?: CommandSandbox;
  /** Paths no tool may read (see sandbox/secretPaths). */
  secrets?: readonly string[];
  /** The endpoint's models: limits, thinking and effort per model (else the built-in table). */
  models?: ModelCatalogue;
  /** What the tools may reach on the network (web_fetch); without it they reach nothing. */
  network?: NetworkPolicy;
  /**
   * The workspace folder exists once this settles (a helper's worktree still being checked out
   * while its first request goes out): every tool call but the plan's waits for it, and a
   * rejection answers the call with its message.
   */
  workspaceReady?: Promise<unknown>;
  /** Where the workspace's AGENTS.md and CLAUDE.md are read (default the workspace): a helper's, from the folder its worktree copies. */
  instructionsFolder?: string;
  /** A helper's agent: its id (its approval cards say who asks) and the main agent's cards to wait among. */
  helper?: { id: string; approvals: ApprovalBroker };
}
