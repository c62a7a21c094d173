import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../../common/agentEvents';
import type { AgentTool } from '../../main/agent/toolRunner';
import { KeelCore } from '../../main/api/core';
import type { ApprovalMode } from '../../common/approvals';
import type { Resolver } from '../../main/network/networkPolicy';
import type { HelperLauncher } from '../../main/sandbox/helperProcess';
import { writeSettingsFile, type ModelSettings, type SettingsFile } from '../../main/settings/modelSettings';
import { startScriptedAnthropic, type ScriptedAnthropic, type ScriptedAnthropicOptions, type Step } from './scriptedAnthropic';

export const TEST_API_KEY = 'sk-test-keel-0123456789';

export interface AgentHarness {
  server: ScriptedAnthropic;
  core: KeelCore;
  workspace: string;
  dataDir: string;
  events: AgentEvent[];
  settings: ModelSettings;
  close(): Promise<void>;
}

/**
 * A real KeelCore on a fresh workspace and data folder, whose agent talks through the real SDK to
 * the project's scripted Anthropic server.
 */
export async function startAgentHarness(
  script: Step[],
  options: {
    tools?: AgentTool[];
    settings?: Partial<ModelSettings>;
    apiKey?: string;
    /** Ask for approvals as the window does (mode from the settings file); default: headless, full auto. */
    approvals?: ApprovalMode;
    /** Options of the scripted server (its context limit, side answers). */
    server?: Omit<ScriptedAnthropicOptions, 'script' | 'apiKey'>;
    /** More of settings.json (e.g. mcpServers). */
    settingsFile?: SettingsFile;
    /** Runs on the fresh workspace before it is opened (e.g. writes a .mcp.json). */
    beforeOpen?: (workspace: string) => void;
    /** Extra core options (MCP start timeout, --trust-project-mcp, where warnings go). */
    core?: { mcpStartTimeoutMs?: number; trustProjectMcp?: boolean; log?: (message: string) => void; resolveHost?: Resolver; sandboxLauncher?: HelperLauncher };
    /** Reuse a data folder (a second start of Keel); it is then not deleted on close. */
    dataDir?: string;
    /**
     * Read the model settings from settings.json as the window saves them (with an empty
     * environment), instead of fixed ones: for tests of what a saved setting does to the agent.
     */
    settingsFromFile?: boolean;
  } = {},
): Promise<AgentHarness> {
  const server = await startScriptedAnthropic({ ...options.server, script, apiKey: TEST_API_KEY });
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-ws-')));
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'keel-data-'));
  const settings: ModelSettings = {
    apiKey: options.apiKey ?? TEST_API_KEY,
    baseURL: server.baseURL,
    model: 'claude-test',
    maxTokens: 1024,
    reminderRounds: 3,
    gateBound: 2,
    contextWindow: 200_000,
    compactAt: 0.8,
    ...options.settings,
  };
  if (options.settingsFromFile) {
    const { apiKey, baseURL, model, maxTokens, reminderRounds, gateBound } = settings;
    writeSettingsFile(dataDir, {
      apiKey,
      baseURL,
      model,
      maxTokens,
      reminderRounds,
      gateBound,
      ...options.settingsFile,
      ...(options.approvals ? { approvalMode: options.approvals } : {}),
    });
  } else if (options.approvals || options.settingsFile)
    writeSettingsFile(dataDir, { ...options.settingsFile, ...(options.approvals ? { approvalMode: options.approvals } : {}) });
  options.beforeOpen?.(workspace);
  const core = new KeelCore({
    dataDir,
    host: 'web',
    version: 'test',
    tools: () => options.tools ?? [],
    ...(options.settingsFromFile ? { settingsEnv: {} } : { settings: () => settings }),
    headless: options.approvals === undefined,
    ...options.core,
  });
  const opened = core.openWorkspace(workspace);
  if (!opened.ok) throw new Error(opened.error.message);
  const events: AgentEvent[] = [];
  core.onEvent((event) => {
    if (event.channel !== 'agent.event') return;
    const { seq: _seq, ...agentEvent } = event.payload;
    events.push(agentEvent);
  });
  return {
    server,
    core,
    workspace,
    dataDir,
    events,
    settings,
    async close() {
      // All of the core, as the host's quit does: the task stopped and awaited, terminals, MCP
      // servers and the sandbox's helper gone, the session's lock released. Nothing stays behind
      // to keep a test file's or a bench's process alive.
      await core.dispose();
      await server.close();
      rmSync(workspace, { recursive: true, force: true });
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A tool that does nothing, for rounds that must not touch the plan. */
export const noopTool: AgentTool = {
  name: 'noop',
  description: 'Does nothing.',
  inputSchema: (await import('zod')).z.object({}).passthrough(),
  async run() {
    return { content: 'ok', isError: false };
  },
};
