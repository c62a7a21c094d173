import { z } from 'zod';
import { TaskErrorCodeSchema, TaskOutcomeSchema } from '../../common/agentEvents';
import { ApprovalModeSchema } from '../../common/approvals';
import { CompactionInfoSchema } from '../../common/contextWindow';
import { EffortSchema } from '../../common/modelCapabilities';
import { HelperInfoSchema } from '../../common/helpers';
import type { ChatMessage } from '../agent/messageTypes';
import { isImageRef } from '../images/imageBlobs';

/*
 * Every record a session transcript holds, one schema each. The session writes only these; every
 * reader (restore, timeline, sessions list) parses the records it reads with them, so a record of
 * the wrong shape is skipped (with a warning where the person would miss it), never repaired. A field no schema names is not
 * read back. The plan's items are left to the plan validator (restorePlan.ts).
 */

const at = z.string();
const count = z.number().int().nonnegative();

/**
 * A message as the model was sent it. The blocks the chat and the restore read are checked field by
 * field; any other block (thinking, a picture…) only for its type, and passed on as the SDK shapes it.
 */
const CHECKED_BLOCKS = ['text', 'tool_use', 'tool_result'];
const BlockShape = z.union([
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string() }),
  z.looseObject({ type: z.literal('tool_result'), tool_use_id: z.string(), is_error: z.boolean().optional() }),
  z.looseObject({ type: z.string().refine((type) => !CHECKED_BLOCKS.includes(type)) }),
]);
const MessageShape = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(BlockShape)]) });
const ChatMessageSchema = z.custom<ChatMessage>((value) => MessageShape.safeParse(value).success, 'not a message');

/** A picture the person attached, by its name in the data folder's blob store. */
const StoredImageSchema = z.object({ ref: z.string().refine(isImageRef, 'not a picture name'), mediaType: z.string() });
const attachments = { images: z.array(StoredImageSchema).optional(), mentions: z.array(z.string()).optional() };

export const SessionHeaderRecordSchema = z.object({ type: z.literal('session'), format: z.number(), id: z.string(), workspace: z.string(), createdAt: at });

/** A plan version, whole (`items`) or as changes to `base` (`delta`); see planRecords.ts. */
export const PlanRecordSchema = z.object({
  type: z.literal('plan'),
  version: z.number().int().positive(),
  source: z.enum(['agent', 'user']),
  at: at.optional(),
  /** Steps not completed, so the sessions list can read a state from the tail. */
  open: count.optional(),
  /** Judged where it is restored: an unreadable one is dropped, the version kept. */
  overrides: z.unknown().optional(),
  items: z.unknown().optional(),
  base: z.number().optional(),
  delta: z.unknown().optional(),
});

export const PlanSeenRecordSchema = z.object({ type: z.literal('plan_seen'), version: count, at });
export const MessageRecordSchema = z.object({ type: z.literal('message'), message: ChatMessageSchema, at });

const usageCount = z.number().optional();
export const UsageRecordSchema = z.object({
  type: z.literal('usage'),
  round: z.object({ inputTokens: usageCount, outputTokens: usageCount, cacheReadTokens: usageCount, cacheCreationTokens: usageCount }),
  at,
});

export const CompactionRecordSchema = z.object({
  type: z.literal('compaction'),
  info: CompactionInfoSchema,
  cleared: z.array(z.object({ toolUseId: z.string(), placeholder: z.string() })),
  keptFrom: z.number().int().nonnegative().optional(),
  head: ChatMessageSchema.optional(),
  at,
});

export const ApprovalModeRecordSchema = z.object({ type: z.literal('approval_mode'), mode: ApprovalModeSchema, at });
/** The effort picked in the status bar for this session. */
export const EffortRecordSchema = z.object({ type: z.literal('effort'), effort: EffortSchema, at });
export const ApprovalRuleRecordSchema = z.object({ type: z.literal('approval_rule'), rule: z.string(), allowed: z.boolean(), at });

export const NOTICE_KINDS = ['reminder', 'gate', 'plan_update', 'max_tokens', 'plan_override', 'model'] as const;
export const NoticeRecordSchema = z.object({
  type: z.literal('notice'),
  kind: z.string(),
  message: z.string(),
  /** Judged where it is shown: an unreadable list is left out, the notice kept. */
  overrides: z.unknown().optional(),
  /** A `plan_update`'s two lists (PlanStepSchema), judged where shown as the overrides are. */
  plan: z.unknown().optional(),
  at,
});

/** Task boundaries, the queue and approvals, for the history and for a person reading the transcript. */
const task = { type: z.literal('task'), at };
export const TaskRecordSchema = z.discriminatedUnion('event', [
  z.object({ ...task, event: z.literal('start'), taskId: z.string(), text: z.string(), ...attachments }),
  z.object({ ...task, event: z.literal('queued'), id: z.string(), text: z.string(), ...attachments }),
  z.object({ ...task, event: z.literal('queue_taken'), ids: z.array(z.string()) }),
  z.object({
    ...task,
    event: z.literal('end'),
    taskId: z.string(),
    outcome: TaskOutcomeSchema,
    openSteps: count.optional(),
    message: z.string().optional(),
    // An unknown code (from a newer Keel) reads as none: the card then gives the general advice.
    errorCode: TaskErrorCodeSchema.optional().catch(undefined),
  }),
  z.object({ ...task, event: z.literal('approval'), tool: z.string(), toolUseId: z.string(), decision: z.string() }),
]);

/** A helper as it started and as it ended (main/helpers/), so a resumed session lists its helpers. */
export const HelperRecordSchema = z.object({ type: z.literal('helper'), helper: HelperInfoSchema, at });

export const TranscriptRecordSchema = z.discriminatedUnion('type', [
  HelperRecordSchema,
  SessionHeaderRecordSchema,
  PlanRecordSchema,
  PlanSeenRecordSchema,
  MessageRecordSchema,
  UsageRecordSchema,
  CompactionRecordSchema,
  ApprovalModeRecordSchema,
  ApprovalRuleRecordSchema,
  EffortRecordSchema,
  NoticeRecordSchema,
  TaskRecordSchema,
]);

export type TranscriptRecord = z.output<typeof TranscriptRecordSchema>;
export type PlanRecord = z.output<typeof PlanRecordSchema>;
type WithoutStamp<T> = T extends unknown ? Omit<T, 'type' | 'at'> : never;
/** What the session's recordTask takes: a task record without its type and time. */
export type TaskEvent = WithoutStamp<z.input<typeof TaskRecordSchema>>;
/** What the writer takes: any record, as its schema accepts it. */
export type TranscriptRecordInput = z.input<typeof TranscriptRecordSchema>;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The record as its schema reads it, or null when it has the wrong shape. */
export function parseTranscriptRecord(value: unknown): TranscriptRecord | null {
  const parsed = TranscriptRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
