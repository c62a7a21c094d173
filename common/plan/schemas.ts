import { z } from 'zod';
import { LIMITS } from '../limits';
import { PLAN_STATUSES } from './types';

/** A stored plan item as it crosses a boundary (IPC, WebSocket, events). */
export const PlanItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(PLAN_STATUSES),
  activeForm: z.string().optional(),
  blockedBy: z.array(z.string()).optional(),
  owner: z.string().optional(),
});

/** A change of the plan as two lists, for the window to diff and say in its own language. */
export const PlanStepSchema = z.object({ before: z.array(PlanItemSchema), after: z.array(PlanItemSchema) });
export type PlanStep = z.infer<typeof PlanStepSchema>;

/** Where the agent's plan undid the person's last edit (common/plan/overrides.ts). */
export const PlanOverrideSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('dropped'), item: PlanItemSchema, index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('reworded_back'), id: z.string(), yours: z.string(), theirs: z.string() }),
  z.object({ kind: z.literal('restored'), item: PlanItemSchema, deleted: PlanItemSchema }),
]);

/** An item as a person proposes it on the board: the validator, not zod, judges its fields. */
const planEditField = z.string().max(LIMITS.planEditFieldChars, `Too long: a plan field may have at most ${LIMITS.planEditFieldChars} characters.`);
export const ProposedPlanItemSchema = z.object({
  id: planEditField.optional(),
  content: planEditField,
  status: planEditField.optional(),
  activeForm: planEditField.optional(),
  blockedBy: z.array(planEditField).max(LIMITS.planEditItems, `Too many dependencies: a step may wait for at most ${LIMITS.planEditItems}.`).optional(),
  owner: planEditField.optional(),
});
