import { z } from 'zod';
import { APPROVAL_MODES, DEFAULT_APPROVAL_MODE, type ApprovalMode } from './approvalModes';

/**
 * ask: ask before commands and file changes. auto_edits: file changes inside the workspace go
 * ahead, commands are asked. full_auto: nothing is asked.
 */
export const ApprovalModeSchema = z.enum(APPROVAL_MODES);
export { APPROVAL_MODES, DEFAULT_APPROVAL_MODE, type ApprovalMode };

/** `network`: reaches hosts through the network policy (web_fetch). */
export type ToolKind = 'command' | 'file_change' | 'read' | 'plan' | 'mcp' | 'network';

/** An approval card: exactly what will run or change. */
export const ApprovalRequestSchema = z.object({
  id: z.string(),
  toolUseId: z.string(),
  tool: z.string(),
  /** The command line, for bash. */
  command: z.string().optional(),
  /** The file, for a write or edit. */
  path: z.string().optional(),
  /** A unified diff of the change, for a write or edit. */
  diff: z.string().optional(),
  /** The rule "Allow for this session" would add, e.g. "command:npm" or "file_change". */
  sessionRule: z.string(),
  /**
   * Why this command asks whatever the session's rules say: it writes outside the workspace (detail:
   * the targets), runs another program through a wrapper (detail: the wrappers), or cannot be judged.
   */
  alwaysAsks: z.object({ kind: z.enum(['outside', 'wrapper', 'unjudgeable', 'leaves_sandbox']), detail: z.string().max(4000) }).optional(),
  /** The command runs in the OS sandbox: the card says what it may and may not do. */
  sandboxed: z.boolean().optional(),
  /** For an MCP tool: its server, its own name and the arguments (JSON, capped). */
  mcp: z.object({ server: z.string(), tool: z.string(), arguments: z.string() }).optional(),
  /** For an MCP tool: the rule that allows every tool of its server, `mcp:<server>`. */
  serverRule: z.string().optional(),
  /** For a call that reaches the network: the URL and its host (the session rule is `network:<host>`). */
  network: z.object({ url: z.string().max(8000), host: z.string().max(300) }).optional(),
  /** The helper that asks (common/helpers.ts, its id = its owner name); absent for the main agent. */
  helper: z.string().max(64).optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;

export const ApprovalDecisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('allow_once') }),
  z.object({
    decision: z.literal('allow_session'),
    /** MCP tools: allow the whole server (its serverRule) rather than this tool. */
    scope: z.enum(['tool', 'server']).optional(),
    /** MCP tools and network hosts: remember the rule in the settings, for every session. */
    always: z.boolean().optional(),
  }),
  z.object({ decision: z.literal('deny'), reason: z.string().max(4000).optional() }),
]);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
