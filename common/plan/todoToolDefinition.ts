import { z } from 'zod';
import { MAX_PLAN_ITEM_LENGTH, MAX_PLAN_ITEMS, MAX_SHORT_ID_LENGTH, PLAN_STATUSES } from './types';

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
        id: z
          .string()
          .optional()
          .describe(
            `The item's id, shown as #id in the plan: an existing item's, to keep it when rewording or moving it. ` +
              `A new item may get one of your choosing (letters, digits and "-", at most ${MAX_SHORT_ID_LENGTH}, e.g. "parse"), so that other items can name it in blockedBy; leave it out and Keel gives one.`,
          ),
        content: z
          .string()
          .describe(`The step, concrete and checkable, e.g. "Run python hello.py and check the output". At most ${MAX_PLAN_ITEM_LENGTH} characters.`),
        status: z.enum(PLAN_STATUSES).describe('pending, in_progress (at most one item of yours) or completed.'),
        activeForm: z.string().optional().describe('Present-progressive phrase shown while the item is in progress, e.g. "Running the tests".'),
        blockedBy: z
          .array(z.string())
          .optional()
          .describe(
            'The ids of the items this one waits for, e.g. ["parse"]. It can be in_progress or completed only once all of them are completed; no cycles. ' +
              'Leave it out to keep what an existing item waits for; [] to clear it.',
          ),
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
    'When a step needs another done first, say so with blockedBy (the ids it waits for; give new items ids of your own to name them in the same call), ' +
    'and start only a step that is ready: everything it waits for is completed. ' +
    'The answer is the stored plan as text, each item with its #id and what blocks it; if the plan is refused, nothing changed and the error says why.',
  input_schema: z.toJSONSchema(todoInputSchema) as { type: 'object'; [key: string]: unknown },
};
