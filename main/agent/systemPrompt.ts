import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WorkspaceSession } from '../session/workspaceSession';
import { shellDisplayName } from '../tools/bash/shell';
import { readInstructions } from './instructions';
import { buildSystemPrompt } from './prompt';
import type { AgentTool } from './toolRunner';

/**
 * The system prompt for this machine and workspace today. It reads AGENTS.md again on every
 * call, so an edited file applies to the next task. `instructionsFolder`: where the workspace's
 * AGENTS.md and CLAUDE.md are read, when not the workspace itself.
 */
export function agentSystemPrompt(
  session: WorkspaceSession,
  tools: readonly AgentTool[],
  dataDir: string | undefined,
  instructionsFolder = session.workspace,
): TextBlockParam[] {
  return buildSystemPrompt({
    workspace: session.workspace,
    platform: process.platform,
    shell: shellDisplayName(),
    date: new Date().toISOString().slice(0, 10),
    toolNames: tools.map((t) => t.name),
    instructions: readInstructions(instructionsFolder, dataDir).text,
  });
}
