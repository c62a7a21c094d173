import { z } from 'zod';
import { MAX_PLAN_ITEM_LENGTH, MAX_PLAN_ITEMS, PLAN_STATUSES } from './types';

export const TODO_TOOL_NAME = 'todo';

/**
 * The shape the model is shown. It describes; it does not judge: the handler hands the raw
 * `items` to validatePlan, so that "IN_PROGRESS" is normalised and every refusal is worded by
 * the one validator rather than by zod.
 */
export const todoInputSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().optional().describe('The id of an existing item, to keep it when rewording or moving it. Leave out for a new item.'),
        content: z
          .string()
          .describe(`The step, concrete and checkable, e.g. "Run python hello.py and check the output". At most ${MAX_PLAN_ITEM_LENGTH} characters.`),
        status: z.enum(PLAN_STATUSES).describe('pending, in_progress (at most one item) or completed.'),
        activeForm: z.string().optional().describe('Present-progressive phrase shown while the item is in progress, e.g. "Running the tests".'),
      }),
    )
    .max(MAX_PLAN_ITEMS)
    .describe(`The whole plan, in order, at most ${MAX_PLAN_ITEMS} items. Always send every item, not just the changed ones.`),
});

export const todoToolDefinition = {
  name: TODO_TOOL_NAME,
  description:
    'Write the plan for the current task: the full, ordered list of steps with their status. ' +
    'Use it when the task needs three or more steps, changes files, or the user asks for a plan. ' +
    'Send the WHOLE list every time (it replaces the stored plan). Mark an item in_progress before starting it ' +
    'and completed as soon as it is done; keep exactly one item in_progress while working. ' +
    'The answer is the stored plan as text; if the plan is refused, nothing changed and the error says why.',
  input_schema: z.toJSONSchema(todoInputSchema) as { type: 'object'; [key: string]: unknown },
};
