import { z } from 'zod';
import { todoToolDefinition, TODO_TOOL_NAME } from '../../common/plan/todoToolDefinition';
import { runTodoTool } from '../plan/runTodoTool';
import type { PlanView } from '../plan/planView';
import type { AgentTool } from './toolRunner';

/**
 * The `todo` tool bound to what one agent has seen of the plan. Its input is not parsed by zod here: the one validator
 * judges it, so that every refusal is worded the same way for the model and the board.
 */
export function createTodoTool(view: PlanView): AgentTool {
  return {
    name: TODO_TOOL_NAME,
    kind: 'plan',
    description: todoToolDefinition.description,
    inputSchema: z.record(z.string(), z.unknown()),
    modelSchema: todoToolDefinition.input_schema,
    async run(input) {
      const outcome = runTodoTool(view.plan, input, view.seenVersion);
      // Refused, the call still showed the model the plan; accepted, it is the model's own update.
      if (outcome.isError) view.markSeen(outcome.seenVersion);
      else view.updated(outcome.seenVersion);
      return { content: outcome.content, isError: outcome.isError };
    },
  };
}
