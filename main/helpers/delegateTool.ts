import { z } from 'zod';
import type { AgentTool } from '../agent/toolRunner';
import type { ToolResult } from '../tools/types';
import { refusalText } from './delegateChecks';

export const DELEGATE_TOOL_NAME = 'delegate';

const DelegateInputSchema = z.object({
  item: z.string().trim().min(1).max(40).describe('The id of a plan step that is ready (its blockers completed), e.g. "tests" or "#tests".'),
  instructions: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('What the helper is told: the goal, the files involved, what to leave alone, and what its answer should report.'),
});
export type DelegateInput = z.output<typeof DelegateInputSchema>;

const DESCRIPTION = `Hands one step of your plan to a helper agent that works it on its own, in a fresh context, with the same file, bash and search tools, and answers when done.
Use it for steps that are independent of each other and take real work: several delegate calls in one answer run their helpers at the same time. Do small steps yourself.
The step must be in your plan (write it with todo first) and ready: every step it waits for completed. While the helper works, the step is in progress and owned by it; when it finishes, its changes are merged into the folder and the step is completed.
The result is the helper's final answer, the files it changed and how they were merged (merged, nothing to merge, a conflict with its files, or in place). A helper cannot delegate again.`;

function modelSchema(): NonNullable<AgentTool['modelSchema']> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(DelegateInputSchema) as Record<string, unknown>;
  return schema as NonNullable<AgentTool['modelSchema']>;
}

/** The main agent's `delegate`: runs `start` (the pool) and waits for the helper's result. */
export function createDelegateTool(start: (input: DelegateInput, signal: AbortSignal) => Promise<ToolResult>): AgentTool {
  return {
    name: DELEGATE_TOOL_NAME,
    kind: 'plan',
    concurrent: true,
    description: DESCRIPTION,
    // Parsed here, so that a bad input is refused with its code like every other refusal.
    inputSchema: z.unknown(),
    modelSchema: modelSchema(),
    async run(input, context) {
      const parsed = DelegateInputSchema.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
        return { isError: true, content: refusalText('bad_input', `${issues}. Send { "item": "<step id>", "instructions": "..." }.`) };
      }
      return start(parsed.data, context.signal);
    },
  };
}

/** A helper's `delegate`: not offered, and refused if called (helpers do not hand work on). */
export const helperDelegateRefusal: AgentTool = {
  name: DELEGATE_TOOL_NAME,
  kind: 'plan',
  hidden: true,
  description: 'Not available to helpers.',
  inputSchema: z.unknown(),
  async run() {
    return {
      isError: true,
      content: refusalText(
        'helper_cannot_delegate',
        'A helper cannot delegate: do this step yourself, or end with an answer that says what is left for the main agent.',
      ),
    };
  },
};
