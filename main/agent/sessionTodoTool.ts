import { z } from 'zod';
import { todoToolDefinition, TODO_TOOL_NAME } from '../../common/plan/todoToolDefinition';
import { runTodoTool } from '../plan/runTodoTool';
import type { WorkspaceSession } from '../session/workspaceSession';
import type { AgentTool } from './toolRunner';

/**
 * The `todo` tool bound to a session. Its input is not parsed by zod here: the one validator
 * judges it, so that every refusal is worded the same way for the model and the board.
 */
export function createTodoTool(session: WorkspaceSession): AgentTool {
  return {
    name: TODO_TOOL_NAME,
    kind: 'plan',
    description: todoToolDefinition.description,
    inputSchema: z.record(z.string(), z.unknown()),
    modelSchema: todoToolDefinition.input_schema,
    async run(input) {
      const outcome = runTodoTool(session.plan, input, session.agentSeenVersion);
      session.markPlanSeen(outcome.seenVersion);
      return { content: outcome.content, isError: outcome.isError };
    },
  };
}
