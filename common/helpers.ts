import { z } from 'zod';
import { AgentEventSchema } from './agentEvents';
import { LIMITS } from './limits';
import { HELPER_STATES } from './helperStates';
import { PlanItemSchema, ProposedPlanItemSchema } from './plan/schemas';

/*
 * Helpers (issue 25): agents the main agent hands one plan step each with its `delegate` tool.
 * This file is the one contract between the engine (main/helpers/) and the board: what a helper
 * is, its live state, and the requests the person steers helpers with. Pure schemas, no I/O.
 */

// A helper's life (its states, which are final): common/helperStates.ts.
export { HELPER_ENDED_STATES, HELPER_STATES, isHelperEnded, type HelperState } from './helperStates';
export const HelperStateSchema = z.enum(HELPER_STATES);

/** How a helper's changes came back into the folder. */
export const HelperMergeSchema = z.enum([
  /** Not yet (running, or waiting for a step it depends on to merge first). */
  'pending',
  /** Merged three-way into the folder. */
  'merged',
  /** It changed nothing. */
  'nothing',
  /** It worked in the folder itself (not a git repository): nothing to merge. */
  'in_place',
  /** Refused: a file it changed was also changed in the folder in a way that overlaps. */
  'conflict',
  /** The person discarded its changes. */
  'discarded',
  /** It failed or was stopped: its changes wait in its worktree. */
  'kept',
]);
export type HelperMerge = z.infer<typeof HelperMergeSchema>;

/** Why helpers do not run side by side in this folder (the board says it once, above the plan). */
export const HelperIsolationSchema = z.enum(['worktree', 'in_place_not_git']);
export type HelperIsolation = z.infer<typeof HelperIsolationSchema>;

/** One helper, whole: what the board draws under its step. */
export const HelperInfoSchema = z.object({
  /** Also its owner name in the plan (`owner` of the step it works): `helper-1`, `helper-2`, … */
  id: z.string(),
  /** The id of the main plan's step it works. */
  item: z.string(),
  /** The step's text when it was delegated. */
  content: z.string(),
  /** What the main agent told it (its first message holds this). */
  instructions: z.string(),
  state: HelperStateSchema,
  /** The tool it runs, while state is `tool` or `waiting_approval`. */
  tool: z.string().optional(),
  /** Its own `todo` list (owner = its id), validated by the same validator. */
  plan: z.array(PlanItemSchema),
  /** Its own plan's version, for `helper.editPlan`'s baseVersion. */
  planVersion: z.number().int().nonnegative(),
  /** Workspace-relative paths it changed (in its worktree, or in place). */
  changedFiles: z.array(z.string()),
  merge: HelperMergeSchema,
  /** With merge `conflict`: the files that could not be merged. */
  conflictFiles: z.array(z.string()),
  /** Its worktree still exists (conflict, failed or stopped with changes): open/merge/discard apply. */
  worktreeKept: z.boolean(),
  isolation: HelperIsolationSchema,
  /** Why it failed or was stopped (English; `reasonCode` for the window's own words). */
  reason: z.string().optional(),
  reasonCode: z.enum(['stopped_by_person', 'main_stopped', 'stalled', 'model_error', 'internal', 'max_rounds']).optional(),
  /** Its final answer, once ended. */
  answer: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
});
export type HelperInfo = z.infer<typeof HelperInfoSchema>;

/** All helpers of the open session, oldest first (a reload asks for this). */
export const HelperListSchema = z.object({ helpers: z.array(HelperInfoSchema) });
export type HelperList = z.infer<typeof HelperListSchema>;

const helperId = z.string().min(1).max(64);
/**
 * Request channels (added to common/contract.ts `requests`). Errors cross as codes:
 * `helper_not_found`, `helper_ended` (stop of an ended helper is answered stopped:false instead),
 * `helper_no_worktree` (open/merge/discard without a kept worktree), `plan_invalid`/`plan_conflict`
 * for editPlan exactly as `plan.edit`.
 */
export const helperRequests = {
  'helper.list': { input: z.object({}).strict(), output: HelperListSchema },
  /** Stops this helper alone; its step goes back to pending with the reason. */
  'helper.stop': { input: z.object({ id: helperId }).strict(), output: z.object({ stopped: z.boolean() }) },
  /**
   * The person's edit of one helper's own plan: same shape and validator as `plan.edit`; told to
   * that helper only, as a diff, before its next request.
   */
  'helper.editPlan': {
    input: z
      .object({
        id: helperId,
        baseVersion: z.number().int().nonnegative(),
        /** The same items, and the same limits and messages, as `plan.edit`. */
        items: z.array(ProposedPlanItemSchema).max(LIMITS.planEditItems, `Too many items: a plan edit may have at most ${LIMITS.planEditItems}.`),
      })
      .strict(),
    output: HelperInfoSchema,
  },
  /**
   * A conflicted (or kept) helper's version of its changed files, for the person to look at:
   * each file's content in the worktree (null: it deleted it) and the three-way diff base.
   */
  'helper.openVersion': {
    input: z.object({ id: helperId }).strict(),
    output: z.object({
      /** Absolute path of its worktree, for an editor or a terminal. */
      worktree: z.string(),
      files: z.array(
        z.object({
          path: z.string(),
          /** Its content in the helper's worktree; null when the helper deleted it. */
          theirs: z.string().nullable(),
          /** The content the helper started from; null when the file did not exist then. */
          base: z.string().nullable(),
          /** The folder's content now; null when absent. */
          ours: z.string().nullable(),
          conflict: z.boolean(),
        }),
      ),
    }),
  },
  /**
   * Merges a kept helper's changes into the folder. `strategy` 'three_way' retries the merge (the
   * person fixed the folder); 'theirs' takes the helper's version of the conflicted files; 'markers'
   * writes the files with conflict markers for the person to merge by hand. The worktree is removed
   * when the merge leaves no conflict.
   */
  'helper.merge': {
    input: z.object({ id: helperId, strategy: z.enum(['three_way', 'theirs', 'markers']).optional() }).strict(),
    output: HelperInfoSchema,
  },
  /** Drops a kept helper's changes: its worktree is removed, the folder unchanged. */
  'helper.discard': { input: z.object({ id: helperId }).strict(), output: HelperInfoSchema },
} as const;

/** Event channels (added to common/contract.ts `events`). Every change of a helper sends it whole. */
export const helperEvents = {
  'helper.changed': HelperInfoSchema,
  /** A helper's own agent events (text, tool calls, approvals, its todo results), attributed to it. */
  'helper.event': z.object({ helper: helperId, event: AgentEventSchema }),
} as const;

/** Error codes of the helper channels (also in common/errorCodes.ts ErrorCodes). */
export const HELPER_ERROR_CODES = {
  helperNotFound: 'helper_not_found',
  helperEnded: 'helper_ended',
  helperNoWorktree: 'helper_no_worktree',
} as const;

/**
 * Codes of a refused `delegate` tool call (the model reads the message; tests read the code, which
 * starts the tool result as `[code] message`).
 */
export const DELEGATE_ERROR_CODES = [
  'unknown_item',
  'item_blocked',
  'item_completed',
  'item_owned',
  'item_in_progress',
  'helper_cannot_delegate',
  'too_many_helpers',
  'bad_input',
] as const;
export type DelegateErrorCode = (typeof DELEGATE_ERROR_CODES)[number];

/** The owner name of the n-th helper of a session (fits SHORT_ID_PATTERN). */
export const helperOwnerName = (n: number): string => `helper-${n}`;

/** A helper's transcript/event attribution: events of helpers carry `helper: id`; the main agent's none. */
export const HelperAttributionSchema = z.object({ helper: helperId.optional() });

/** Settings (common/settings.ts): `helpers.max` default 4, `helpers.stallSeconds` default 300. */
export const HELPER_DEFAULTS = { max: 4, stallSeconds: 300 } as const;
