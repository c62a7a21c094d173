import { z } from 'zod';
import { ApprovalRequestSchema } from './approvals';
import { PlanItemSchema, PlanOverrideSchema, PlanStepSchema } from './plan/schemas';
import { CompactionInfoSchema, ContextUsageSchema } from './contextWindow';
import { TASK_ERROR_CODES } from './errorCodes';
import { WebSearchHitSchema } from './webSearch';

/** A picture the chat shows, by its blob name (kept here apart from chat.ts, which imports this file). */
const EventImageSchema = z.object({ ref: z.string(), mediaType: z.string() });
/** What a person's message carried besides its text. */
const MessageExtras = { images: z.array(EventImageSchema).optional(), mentions: z.array(z.string()).optional() };

/** What the agent is doing, as the status bar and `keel run` show it. */
export const AgentStateSchema = z.enum(['idle', 'thinking', 'running_tool', 'waiting_approval', 'done', 'stopped_unfinished', 'cancelled', 'error']);
export type AgentState = z.infer<typeof AgentStateSchema>;

export const TaskOutcomeSchema = z.enum(['done', 'stopped_unfinished', 'cancelled', 'error', 'refused']);
export type TaskOutcome = z.infer<typeof TaskOutcomeSchema>;

export const TaskErrorCodeSchema = z.enum(TASK_ERROR_CODES);

export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheCreationTokens: z.number(),
  /** The API's own web searches, billed per search; absent until there is one. */
  webSearches: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Everything a running task reports, in order: the UI, the CLI and the transcript read the same events. */
export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('task_started'), taskId: z.string(), text: z.string(), ...MessageExtras }),
  z.object({ type: z.literal('state'), state: AgentStateSchema }),
  z.object({ type: z.literal('text'), delta: z.string() }),
  /** The model's thinking as it streams, its own row in the chat; `redacted`: reasoning the model hid. */
  z.object({ type: z.literal('thinking'), delta: z.string(), redacted: z.boolean().optional() }),
  /** A cut stream is being retried: the text streamed in this round so far is void, and so are the web searches it names. */
  z.object({ type: z.literal('stream_retry'), attempt: z.number(), reason: z.string(), webSearches: z.array(z.string()).optional() }),
  z.object({ type: z.literal('tool_call'), id: z.string(), name: z.string(), input: z.unknown() }),
  /** The API searched the web on its side (a server tool): the query, then its results or error code. */
  z.object({ type: z.literal('web_search'), id: z.string(), query: z.string() }),
  z.object({ type: z.literal('web_search_results'), id: z.string(), results: z.array(WebSearchHitSchema), errorCode: z.string().optional() }),
  /** The text block just streamed cites these pages (of the API's web search): the sources under the answer. */
  z.object({ type: z.literal('citations'), sources: z.array(WebSearchHitSchema) }),
  /** `skipped`: characters of output before `chunk` that were not sent live (a flood); the result has head and tail. */
  z.object({ type: z.literal('tool_output'), id: z.string(), chunk: z.string(), skipped: z.number().int().nonnegative().optional() }),
  z.object({
    type: z.literal('tool_result'),
    id: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.boolean(),
    images: z.array(EventImageSchema).optional(),
    /** An accepted `todo` call: the version it replaced and the one it stored (common/plan/callStep.ts). */
    plan: PlanStepSchema.optional(),
    /** The person's edits the call replaced, since the agent's previous plan. */
    yours: PlanStepSchema.optional(),
  }),
  /** Something Keel told the model on its own: a reminder, the completion gate, the person's plan edit. */
  /** `plan_override` is for the person only: the agent's accepted plan undid part of their edit (`overrides` says where). */
  z.object({
    type: z.literal('notice'),
    kind: z.enum(['reminder', 'gate', 'plan_update', 'max_tokens', 'plan_override', 'model']),
    message: z.string(),
    overrides: z.array(PlanOverrideSchema).optional(),
    /** `plan_update`: the plan the model had seen and the plan with the person's edit. */
    plan: PlanStepSchema.optional(),
  }),
  z.object({ type: z.literal('usage'), round: UsageSchema, session: UsageSchema }),
  /** How full the context window is now (after each answer and each compaction). */
  ContextUsageSchema.extend({ type: z.literal('context') }),
  /** Keel made room in the history: older tool results cleared, or the older conversation summarised. */
  CompactionInfoSchema.extend({ type: z.literal('compaction') }),
  /** A tool call waits for the person: the card shows exactly what will run or change. */
  z.object({ type: z.literal('approval_requested'), request: ApprovalRequestSchema }),
  z.object({ type: z.literal('approval_resolved'), id: z.string(), decision: z.enum(['allow_once', 'allow_session', 'deny']) }),
  /** A message sent while the agent works waits for its next step. */
  z.object({ type: z.literal('message_queued'), id: z.string(), text: z.string(), ...MessageExtras }),
  z.object({ type: z.literal('message_taken'), ids: z.array(z.string()) }),
  /** The task ended (stopped) before queued messages were taken: they were not sent. */
  z.object({ type: z.literal('message_dropped'), ids: z.array(z.string()) }),
  z.object({
    type: z.literal('task_finished'),
    taskId: z.string(),
    outcome: TaskOutcomeSchema,
    message: z.string().optional(),
    /** With `error`: why, so a client says what to do without reading the message. */
    errorCode: TaskErrorCodeSchema.optional(),
    unfinished: z.array(PlanItemSchema).optional(),
    /** Steps of the plan not completed when the task ended. */
    openSteps: z.number().int().nonnegative().optional(),
  }),
]);
export type AgentEvent = z.infer<typeof AgentEventSchema>;
