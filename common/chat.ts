import { z } from 'zod';
import { TaskErrorCodeSchema, TaskOutcomeSchema } from './agentEvents';
import { ApprovalRequestSchema } from './approvals';
import { CompactionInfoSchema } from './contextWindow';
import { PlanOverrideSchema, PlanStepSchema } from './plan/schemas';
import { WebSearchHitSchema } from './webSearch';

/** A picture in the chat: the name of its blob in the data folder (`chat.image` gives its bytes). */
export const ChatImageSchema = z.object({ ref: z.string(), mediaType: z.string() });
export type ChatImage = z.infer<typeof ChatImageSchema>;

/** A tool call's card: its input, its live output while it runs, then its result. */
export const ToolItemSchema = z.object({
  kind: z.literal('tool'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  output: z.string().optional(),
  result: z.object({ content: z.string(), isError: z.boolean(), images: z.array(ChatImageSchema).optional() }).optional(),
  /** An accepted `todo` call: what it replaced and stored, and the person's edits before it. */
  plan: PlanStepSchema.optional(),
  yours: PlanStepSchema.optional(),
  /** The person's answer to its approval card, as the transcript recorded it (the card's badge after a restart). */
  decision: z.enum(['allow_once', 'allow_session', 'deny']).optional(),
});
export type ToolItem = z.infer<typeof ToolItemSchema>;

/** One entry of the chat as the person sees it; built from the transcript, then kept live from agent events. */
export const ChatItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    /** Sent while the agent worked and not yet taken by it. */
    queued: z.boolean().optional(),
    /** Queued, then the task stopped before taking it: it never reached the model. */
    notSent: z.boolean().optional(),
    /** Pictures the person pasted or dropped into the message. */
    images: z.array(ChatImageSchema).optional(),
    /** Workspace paths the person @-mentioned, whose contents went to the model with the message. */
    mentions: z.array(z.string()).optional(),
  }),
  /** `sources`: the web pages the answer cites, numbered in order (from the API's web search; never loaded). */
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    text: z.string(),
    streaming: z.boolean().optional(),
    sources: z.array(WebSearchHitSchema).optional(),
  }),
  /** The model's thinking before its answer; `redacted`: reasoning the model hid, shown as such. */
  z.object({ kind: z.literal('thinking'), id: z.string(), text: z.string(), redacted: z.boolean().optional(), streaming: z.boolean().optional() }),
  ToolItemSchema,
  /** A search the API ran on its side: the query, then the results' titles and addresses (none loaded). */
  z.object({
    kind: z.literal('web_search'),
    id: z.string(),
    query: z.string(),
    results: z.array(WebSearchHitSchema).optional(),
    errorCode: z.string().optional(),
  }),
  z.object({
    kind: z.literal('notice'),
    id: z.string(),
    notice: z.string(),
    text: z.string(),
    overrides: z.array(PlanOverrideSchema).optional(),
    plan: PlanStepSchema.optional(),
  }),
  z.object({
    kind: z.literal('outcome'),
    id: z.string(),
    outcome: TaskOutcomeSchema,
    message: z.string().optional(),
    errorCode: TaskErrorCodeSchema.optional(),
    openSteps: z.number().optional(),
  }),
  /** Keel made room in the conversation; the row opens to the summary. */
  CompactionInfoSchema.extend({ kind: z.literal('compaction') }),
]);
export type ChatItem = z.infer<typeof ChatItemSchema>;

/** An approval card of a tool call and the person's answer, once given (the card's badge). */
export const CallApprovalSchema = z.object({
  request: ApprovalRequestSchema,
  decision: z.enum(['allow_once', 'allow_session', 'deny']).optional(),
});
export type CallApproval = z.infer<typeof CallApprovalSchema>;

/**
 * The tool calls of the running (or last) task as the live chat has them: what a window that
 * (re)loads needs beyond the transcript, which records a round's results only once every call of
 * the round has ended, and never live output or approvals.
 */
export const LiveCallsSchema = z.object({
  calls: z.array(ToolItemSchema),
  approvals: z.array(CallApprovalSchema),
});
export type LiveCalls = z.infer<typeof LiveCallsSchema>;
