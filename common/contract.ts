import { z } from 'zod';
import { AgentEventSchema, AgentStateSchema, TaskOutcomeSchema, UsageSchema } from './agentEvents';
import { ApprovalDecisionSchema, ApprovalModeSchema, ApprovalRequestSchema } from './approvals';
import { ChangeConflictCodeSchema } from './changeConflicts';
import { ChatItemSchema, LiveCallsSchema } from './chat';
import { helperEvents, helperRequests } from './helpers';
import { CompactionInfoSchema, ContextUsageSchema, InstructionFileSchema } from './contextWindow';
import { EffortSchema, ModelProfileViewSchema } from './modelCapabilities';
import { SandboxStatusSchema } from './sandbox';
import { McpListSchema, McpScopeSchema, McpServerNameSchema } from './mcp';
import { SettingsUpdateSchema, SettingsViewSchema } from './settings';
import { PlanItemSchema, PlanOverrideSchema, ProposedPlanItemSchema } from './plan/schemas';
import { PLAN_PROBLEM_CODES } from './plan/validate';
import type { Result } from './result';

export { PlanItemSchema };

import { LIMITS } from './limits';
export { LIMITS, MAX_WIRE_BYTES } from './limits';

/*
 * The one contract between the renderer and main. Every request and event is declared here once,
 * with zod schemas; the Electron IPC binding, the preload, the WebSocket host and the web client
 * are all derived from these two objects, so they are also the allowlist.
 */

export const PlanSnapshotSchema = z.object({
  /** 0 before the first version. */
  version: z.number().int().nonnegative(),
  /** Who made this version; null while there is none. */
  source: z.enum(['agent', 'user']).nullable(),
  items: z.array(PlanItemSchema),
  at: z.string().nullable(),
  /** This (agent) version undid part of the person's last edit; the board offers it back. */
  overrides: z.array(PlanOverrideSchema).optional(),
});

/** One of the validator's problems as `plan.edit` sends it (common/plan/validate.ts words it). */
export const PlanProblemSchema = z.object({
  index: z.number().int().nonnegative().nullable(),
  message: z.string(),
  code: z.enum(PLAN_PROBLEM_CODES),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
/** `plan.edit` refused with `plan_conflict`: the plan moved on; this is the plan as it is now. */
export const PlanConflictDetailsSchema = z.object({ current: PlanSnapshotSchema });
/** `plan.edit` refused with `plan_invalid`: every problem, by item. */
export const PlanInvalidDetailsSchema = z.object({ problems: z.array(PlanProblemSchema) });

export const WorkspaceInfoSchema = z.object({
  /** Real path of the folder. */
  path: z.string(),
  name: z.string(),
  sessionId: z.string(),
});

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  dataDir: z.string(),
  /** Whether the host can show a native folder picker (Electron) or needs a typed path (web). */
  nativeFolderPicker: z.boolean(),
});

const none = z.object({}).strict();

export const MAX_IMAGES_PER_MESSAGE = 4;
export const MAX_MENTIONS_PER_MESSAGE = 20;
/** Base64 of 5 MB, the API's limit for one picture, with room for padding. */
const MAX_IMAGE_BASE64_CHARS = 7_000_000;

/** A picture as the window sends it: base64 bytes already scaled to the API's limits. */
export const ImageAttachmentSchema = z
  .object({
    mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    data: z.string().min(1).max(MAX_IMAGE_BASE64_CHARS),
  })
  .strict();
export type ImageAttachment = z.output<typeof ImageAttachmentSchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  /** The first task's first line, cut for the list. */
  title: z.string(),
  /** The first task's text, up to 600 characters, for the list's tooltip. */
  task: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastOutcome: TaskOutcomeSchema.nullable(),
  /** Steps of the session's plan not completed, as last stored. */
  openSteps: z.number().int().nonnegative().optional(),
  /** Steps not completed when its last task ended. */
  openAtEnd: z.number().int().nonnegative().optional(),
});

export const RecentFolderSchema = z.object({ path: z.string(), name: z.string(), openedAt: z.string() });

const TerminalSize = z.number().int().min(1).max(1000);

export const TerminalInfoSchema = z.object({ id: z.string(), title: z.string(), cwd: z.string(), pid: z.number() });

export const FileChangeSchema = z.object({
  /** Workspace-relative path. */
  path: z.string(),
  kind: z.enum(['created', 'edited', 'deleted']),
  /** Unified diff from before the task to the agent's last write (text files; binary files say so). */
  diff: z.string(),
  /** 'undone' after an undo of this file, until redone. */
  state: z.enum(['applied', 'undone']),
});

export const TaskChangesSchema = z.object({
  taskId: z.string(),
  /** The person's message that started the task. */
  title: z.string(),
  at: z.string(),
  files: z.array(FileChangeSchema),
});

export const ChangeActionResultSchema = z.object({
  /** Files put back (undo) or re-applied (redo). */
  done: z.array(z.string()),
  /** Files changed by someone else since: left alone unless forced. */
  /** `reason` in English; `code` and `params` for the window to say it in the person's language. */
  conflicts: z.array(
    z.object({ path: z.string(), reason: z.string(), code: ChangeConflictCodeSchema.optional(), params: z.record(z.string(), z.string()).optional() }),
  ),
});

/** Enough for a window that opens mid-task to show where the agent is. */
export const AgentStatusSchema = z.object({
  running: z.boolean(),
  state: AgentStateSchema,
  model: z.string(),
  usage: UsageSchema,
  /** This session's approval mode (new sessions start with the settings' default). */
  approvalMode: ApprovalModeSchema,
  pendingApprovals: z.array(ApprovalRequestSchema),
  queued: z.array(z.object({ id: z.string(), text: z.string() })),
  /** The tool calls of the running or last task as the live chat has them (output, results, approvals). */
  liveCalls: LiveCallsSchema.optional(),
  /** How full the model's context window is (the meter). */
  context: ContextUsageSchema.optional(),
  /** AGENTS.md / CLAUDE.md files the agent is given. */
  instructionFiles: z.array(InstructionFileSchema).optional(),
  /** The plan's open steps when this session's last task (in this process) ended. */
  openAtEnd: z.number().int().nonnegative().optional(),
});

export const requests = {
  'app.info': { input: none, output: AppInfoSchema },
  'workspace.current': { input: none, output: WorkspaceInfoSchema.nullable() },
  'workspace.open': { input: z.object({ path: z.string().min(1) }).strict(), output: WorkspaceInfoSchema },
  /** Native "Open Folder…" dialog; resolves null when the person cancels. */
  'workspace.choose': { input: none, output: WorkspaceInfoSchema.nullable() },
  'plan.get': { input: none, output: PlanSnapshotSchema },
  /** A person's edit: the whole proposed list and the version it was made against. */
  'plan.edit': {
    input: z
      .object({
        baseVersion: z.number().int().nonnegative(),
        items: z.array(ProposedPlanItemSchema).max(LIMITS.planEditItems, `Too many items: a plan edit may have at most ${LIMITS.planEditItems}.`),
      })
      .strict(),
    output: PlanSnapshotSchema,
  },
  /** Starts a task with the person's message; progress arrives as `agent.event`. */
  'task.send': {
    input: z
      .object({
        /** May be empty when the message is only pictures (a pasted screenshot sent as it is). */
        text: z
          .string()
          .trim()
          .max(LIMITS.messageChars, `Too long: a message may have at most ${LIMITS.messageChars} characters. Attach a long text as a file instead.`),
        /** Pictures pasted or dropped into the composer; main checks their bytes again. */
        images: z.array(ImageAttachmentSchema).max(MAX_IMAGES_PER_MESSAGE).optional(),
        /** Workspace paths @-mentioned in the text: their contents go to the model with it. */
        mentions: z.array(z.string().min(1).max(4096)).max(MAX_MENTIONS_PER_MESSAGE).optional(),
      })
      .strict()
      // Mentions live in the text, so a message without text needs a picture to say anything.
      .refine((message) => message.text !== '' || (message.images?.length ?? 0) > 0, {
        path: ['text'],
        message: 'The message is empty: write something or attach a picture.',
      }),
    /** `queued`: a task was running, so the message waits for the agent's next step (taskId is then the message's id). */
    output: z.object({ taskId: z.string(), queued: z.boolean() }),
  },
  /** Stops the running task at once (no-op when none runs). */
  'task.stop': { input: none, output: z.object({ stopped: z.boolean() }) },
  'agent.status': { input: none, output: AgentStatusSchema },
  /** "Compact now": summarises the older conversation to make room (refused while a task runs). */
  'context.compact': { input: none, output: z.object({ compactions: z.array(CompactionInfoSchema) }) },
  /** Sets the open session's approval mode and keeps it as the default for new sessions. */
  'approval.setMode': { input: z.object({ mode: ApprovalModeSchema }).strict(), output: z.object({ mode: ApprovalModeSchema }) },
  'approval.respond': { input: z.object({ id: z.string(), answer: ApprovalDecisionSchema }).strict(), output: z.object({ answered: z.boolean() }) },
  /** The "Allow for this session" rules of the open session, revocable in settings. */
  'approval.rules': { input: none, output: z.object({ rules: z.array(z.string()) }) },
  'approval.revoke': { input: z.object({ rule: z.string() }).strict(), output: z.object({ rules: z.array(z.string()) }) },
  'chat.history': { input: none, output: z.array(ChatItemSchema) },
  /** The window's chat and the agent's status, read at once: they hold every `agent.event` numbered up to `upTo`, and none after. */
  'chat.load': { input: none, output: z.object({ items: z.array(ChatItemSchema), status: AgentStatusSchema, upTo: z.number().int().nonnegative() }) },
  /** A picture of the chat by its blob name, for its thumbnail. */
  'chat.image': { input: z.object({ ref: z.string().max(200) }).strict(), output: z.object({ mediaType: z.string(), data: z.string() }) },
  /** Workspace files whose paths match what follows an `@` in the composer, best first. */
  'mentions.query': {
    input: z.object({ query: z.string().max(1000), limit: z.number().int().min(1).max(100).optional() }).strict(),
    /** `ready` is false while the folder's first index is still being built (the paths are then partial). */
    output: z.object({ paths: z.array(z.string()), ready: z.boolean() }),
  },
  'session.list': { input: none, output: z.array(SessionSummarySchema) },
  'session.new': { input: none, output: WorkspaceInfoSchema },
  'session.open': { input: z.object({ id: z.string().min(1) }).strict(), output: WorkspaceInfoSchema },
  /**
   * Moves the session's transcript to the trash folder and erases the copies its Changes view undoes with; the open
   * session cannot be deleted while a task runs, nor one another Keel has open (`session_in_use`).
   */
  'session.delete': { input: z.object({ id: z.string().min(1) }).strict(), output: z.object({ deleted: z.boolean() }) },
  'folders.recent': { input: none, output: z.array(RecentFolderSchema) },
  /** Folder names that complete a typed path (the web host's "Open Folder…"). */
  'folders.complete': { input: z.object({ partial: z.string() }).strict(), output: z.array(z.string()) },
  'settings.get': { input: none, output: SettingsViewSchema },
  'settings.update': { input: SettingsUpdateSchema, output: SettingsViewSchema },
  /**
   * One tiny request to the model. With fields, it tests them as typed (the form not yet saved)
   * over the saved settings, and saves nothing. `code` and its parameters let the window say it
   * in its own language; `message` is main's English, with the API's details.
   */
  'settings.testConnection': {
    input: z.object({ apiKey: z.string().min(1).optional(), baseURL: z.string().optional(), model: z.string().min(1).optional() }).strict(),
    output: z.object({
      ok: z.boolean(),
      code: z.enum(['connected', 'no_key', 'bad_url', 'auth', 'bad_request', 'forbidden', 'not_found', 'overloaded', 'connection', 'config', 'api']),
      model: z.string(),
      answer: z.string().optional(),
      message: z.string(),
    }),
  },

  /**
   * Saves a text the person pasted (too long for a message) as a new file in the workspace,
   * `.keel/pastes/paste-<time>.txt`; the answer is its workspace-relative path.
   */
  'paste.save': {
    input: z
      .object({ text: z.string().min(1).max(LIMITS.pasteFileChars, `Too long: a pasted text may have at most ${LIMITS.pasteFileChars} characters.`) })
      .strict(),
    output: z.object({ path: z.string() }),
  },

  /** The person's own shells, in tabs: node-pty in main, xterm.js in the window. */
  'terminal.create': { input: z.object({ cols: TerminalSize, rows: TerminalSize }).strict(), output: TerminalInfoSchema },
  'terminal.list': { input: none, output: z.array(TerminalInfoSchema) },
  'terminal.input': {
    input: z
      .object({
        id: z.string(),
        data: z.string().max(LIMITS.terminalInputChars, `Too long: send terminal input in pieces of at most ${LIMITS.terminalInputChars} characters.`),
      })
      .strict(),
    output: z.object({}),
  },
  'terminal.resize': { input: z.object({ id: z.string(), cols: TerminalSize, rows: TerminalSize }).strict(), output: z.object({}) },
  /** Flow control: the window says how many bytes of output xterm.js has parsed (binary frames carry the same). */
  'terminal.ack': {
    input: z.object({ id: z.string(), bytes: z.number().int().nonnegative(), parseRate: z.number().int().positive().optional() }).strict(),
    output: z.object({}),
  },
  /**
   * A window attaching to a running shell (after a reload, or a second window): its screen and
   * scrollback as escape sequences, and the last output batch they contain (drop batches up to it).
   */
  'terminal.snapshot': {
    input: z.object({ id: z.string() }).strict(),
    output: z.object({ data: z.string(), seq: z.number().int().nonnegative(), cols: z.number().int(), rows: z.number().int() }),
  },
  /** Closes the tab: the shell and every process it started are killed. */
  'terminal.close': { input: z.object({ id: z.string() }).strict(), output: z.object({ closed: z.boolean() }) },

  /** What the agent changed in this session, grouped by task, with diffs. */
  'changes.list': { input: none, output: z.array(TaskChangesSchema) },
  /**
   * Puts files back as they were before the task (one file with `path`). A file the person changed
   * since the agent touched it is not overwritten unless `force`: the answer lists the conflicts.
   */
  'changes.undo': {
    input: z.object({ taskId: z.string(), path: z.string().optional(), force: z.boolean().optional() }).strict(),
    output: ChangeActionResultSchema,
  },
  'changes.redo': {
    input: z.object({ taskId: z.string(), path: z.string().optional(), force: z.boolean().optional() }).strict(),
    output: ChangeActionResultSchema,
  },

  /** MCP servers: the person's (settings.json) and the open folder's (.mcp.json), with state and tools. */
  'mcp.list': { input: none, output: McpListSchema },
  'mcp.restart': { input: z.object({ scope: McpScopeSchema, name: z.string() }).strict(), output: McpListSchema },
  /** The one-time "Trust this folder's MCP servers" answer, for this content of .mcp.json. */
  'mcp.trustProject': { input: z.object({ trust: z.boolean() }).strict(), output: McpListSchema },
  /** Adds or replaces one of the person's servers (`previousName` renames); the config is checked by main. */
  'mcp.saveServer': {
    input: z.object({ name: McpServerNameSchema, config: z.record(z.string(), z.unknown()), previousName: z.string().optional() }).strict(),
    output: McpListSchema,
  },
  'mcp.removeServer': { input: z.object({ name: z.string() }).strict(), output: McpListSchema },
  /** Adds or removes a settings-level "always allow" rule (`mcp:<server>`, `tool:mcp__…`). */
  'mcp.setAlwaysAllowed': { input: z.object({ rule: z.string().regex(/^(mcp:|tool:mcp__)/), allowed: z.boolean() }).strict(), output: McpListSchema },

  /** The model the next task uses: its limits, thinking and effort, where each comes from, and the endpoint's models. */
  'model.profile': { input: none, output: ModelProfileViewSchema },
  /** The status bar's effort for the open session (the next request carries it); only a level the model lists. */
  'model.setEffort': { input: z.object({ effort: EffortSchema }).strict(), output: ModelProfileViewSchema },
  /** Whether the agent's commands in the open folder run sandboxed; null when no folder is open. */
  'sandbox.status': { input: none, output: SandboxStatusSchema.nullable() },

  /** Helpers the main agent delegated plan steps to (common/helpers.ts). */
  ...helperRequests,
} as const;

export const events = {
  'terminal.exit': z.object({ id: z.string(), exitCode: z.number().nullable(), signal: z.number().nullable() }),
  'changes.changed': z.object({}),
  'workspace.changed': WorkspaceInfoSchema.nullable(),
  'plan.changed': PlanSnapshotSchema,
  /** `seq`: the event's number in the open session, from 1 (what `chat.load` holds is numbered up to its `upTo`). */
  'agent.event': AgentEventSchema.and(z.object({ seq: z.number().int().positive() })),
  'mcp.changed': McpListSchema,
  /** The approval mode in force in the open session changed (the status bar, or Settings, which also keeps it as the default). */
  'approval.modeChanged': z.object({ mode: ApprovalModeSchema }),
  /** The model profile changed (the catalogue arrived, the settings or the session's effort changed). */
  'model.changed': ModelProfileViewSchema,
  /** The open folder's sandbox changed state (checked, started, or its helper ended). */
  'sandbox.changed': SandboxStatusSchema,
  /** One helper changed (state, plan, files, merge): sent whole. */
  ...helperEvents,
} as const;

export type RequestChannel = keyof typeof requests;
export type EventChannel = keyof typeof events;
export type RequestInput<C extends RequestChannel> = z.input<(typeof requests)[C]['input']>;
export type RequestOutput<C extends RequestChannel> = z.output<(typeof requests)[C]['output']>;
export type EventPayload<E extends EventChannel> = z.output<(typeof events)[E]>;

export type PlanSnapshot = z.output<typeof PlanSnapshotSchema>;
export type ProposedPlanItem = z.output<typeof ProposedPlanItemSchema>;
export { ProposedPlanItemSchema };
export type PlanConflictDetails = z.output<typeof PlanConflictDetailsSchema>;
export type PlanInvalidDetails = z.output<typeof PlanInvalidDetailsSchema>;
export type WorkspaceInfo = z.output<typeof WorkspaceInfoSchema>;
export type AppInfo = z.output<typeof AppInfoSchema>;
export type SessionSummary = z.output<typeof SessionSummarySchema>;
export type RecentFolder = z.output<typeof RecentFolderSchema>;
export type TerminalInfo = z.output<typeof TerminalInfoSchema>;
export type TaskChanges = z.output<typeof TaskChangesSchema>;
export type FileChange = z.output<typeof FileChangeSchema>;
export type ChangeActionResult = z.output<typeof ChangeActionResultSchema>;

export const requestChannels = Object.keys(requests) as RequestChannel[];
export const eventChannels = Object.keys(events) as EventChannel[];

export const isRequestChannel = (name: unknown): name is RequestChannel => typeof name === 'string' && Object.hasOwn(requests, name);
export const isEventChannel = (name: unknown): name is EventChannel => typeof name === 'string' && Object.hasOwn(events, name);

/** What the renderer sees: one typed object, whatever transport carries it. */
export interface KeelApi {
  request<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>>;
  /** Returns the function that unsubscribes. */
  on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Terminal output as bytes, outside the JSON contract (see common/terminalFrames.ts). */
  terminalOutput: TerminalOutputStream;
}

/** Raw pty output, numbered per tab from 1, and its acknowledgement (flow control). */
export interface TerminalOutputStream {
  /** Returns the function that unsubscribes. */
  on(listener: (id: string, seq: number, data: Uint8Array) => void): () => void;
  /**
   * xterm.js has parsed `bytes` more bytes of the tab's output; `parseRate`, when measured, is
   * how many bytes a second it parses (main sizes the output it lets through by it).
   */
  ack(id: string, bytes: number, parseRate?: number): void;
}

export { ErrorCodes } from './errorCodes';

/** Messages on the WebSocket: the same channels, framed. */
export const WireRequestSchema = z.object({
  type: z.literal('request'),
  id: z.number().int(),
  channel: z.string(),
  payload: z.unknown(),
});
export type WireMessage = { type: 'response'; id: number | null; result: Result<unknown> } | { type: 'event'; channel: EventChannel; payload: unknown };

export const ELECTRON_CHANNEL_PREFIX = 'keel:';
