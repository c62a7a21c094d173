import type { AppInfo } from '../../common/contract';
import type { AgentTool } from '../agent/toolRunner';
import type { KeyStore } from '../settings/keyStore';
import type { ModelSettings } from '../settings/modelSettings';
import type { Resolver } from '../network/networkPolicy';
import type { HelperLauncher } from '../sandbox/helperProcess';

/** How a host sets up the core: where its data lives, what it is, and what it can do. */
export interface CoreOptions {
  dataDir: string;
  host: AppInfo['host'];
  version: string;
  /** The host's native folder picker, where it has one. */
  chooseFolder?: () => Promise<string | null>;
  /** The workspace tools the agent gets (files, bash); the todo tool is always added. */
  tools?: () => AgentTool[];
  /** Where a key typed in the window is kept; by default the owner-only settings file. */
  keyStore?: KeyStore;
  /** Fixed model settings (tests); by default the settings service's, overridden by the environment. */
  settings?: () => ModelSettings;
  /** The environment that overrides the settings file; process.env by default (tests pass their own). */
  settingsEnv?: NodeJS.ProcessEnv;
  /** Whether the agent asks before commands and file changes; `keel run` passes full_auto. */
  headless?: boolean;
  /** `keel run --trust-project-mcp`: start the folder's .mcp.json servers without the trust prompt. */
  trustProjectMcp?: boolean;
  /** How long an MCP server may take to start before it is shown as failed (30 s). */
  mcpStartTimeoutMs?: number;
  /**
   * Start the search workers when a workspace opens (the hosts do; tests need not): a worker's
   * start was most of what made the first search of a session slower than the next ones.
   */
  warmSearch?: boolean;
  log?: (message: string) => void;
  /** How the network policy resolves names; the system's by default (tests map names to their local servers). */
  resolveHost?: Resolver;
  /** How the sandbox helper process is started; a Node fork by default (the Electron app uses utility processes). */
  sandboxLauncher?: HelperLauncher;
}
