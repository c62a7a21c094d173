import type { ToolResult } from '../tools/types';
import { CANCELLED_RESULT } from './modelTexts';
import type { AgentTool } from './toolRunner';

/**
 * Before a call that may touch the workspace, waits for its folder to exist (a helper's worktree
 * is checked out while its first request is already out, see AgentOptions.workspaceReady). Returns
 * the result to give the model instead of running the call, or null to run it. The plan's own
 * calls need no folder and do not wait.
 */
export async function awaitWorkspace(ready: Promise<unknown> | undefined, tool: AgentTool | undefined, signal: AbortSignal): Promise<ToolResult | null> {
  if (!ready || !tool || tool.kind === 'plan') return null;
  const outcome = await new Promise<{ kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'stopped' }>((resolve) => {
    if (signal.aborted) return resolve({ kind: 'stopped' });
    const onAbort = () => resolve({ kind: 'stopped' });
    signal.addEventListener('abort', onAbort, { once: true });
    ready
      .then(
        () => resolve({ kind: 'ready' }),
        (error: unknown) => resolve({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
  if (outcome.kind === 'ready') return null;
  if (outcome.kind === 'stopped') return { content: CANCELLED_RESULT, isError: true };
  return { content: `${tool.name} did not run: the workspace folder could not be made (${outcome.message}).`, isError: true };
}
