import type { ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { z } from 'zod';
import type { ToolKind } from '../../common/approvals';
import type { SandboxStatus } from '../../common/sandbox';
import type { SandboxedCommand } from '../sandbox/workspaceSandbox';

/** The workspace's OS sandbox, as the bash tool uses it. */
export interface CommandSandbox {
  /** Checks the sandbox on first use; the same answer after. */
  start(): Promise<SandboxStatus>;
  wrap(command: string, sessionId: string): Promise<SandboxedCommand>;
}
import type { NetworkPolicy } from '../network/networkPolicy';

/** What a tool is given besides its input. */
export interface ToolContext {
  /** Real path of the workspace folder (symlinks resolved); every path a tool touches stays inside. */
  workspace: string;
  /** Aborted when the person stops the task: a tool must end promptly (kill its process) and return. */
  signal: AbortSignal;
  /** Live output of a running command, for the Agent terminal tab and the chat card. */
  onOutput?: (chunk: string) => void;
  /** A file the tool is about to change, before it changes it (for the Changes view and undo). */
  beforeFileChange?: (absolutePath: string) => void;
  /** The session's id: its temp folder inside the sandbox is its own. */
  sessionId?: string;
  /** Where commands are confined; absent: commands run as before, unconfined. */
  sandbox?: CommandSandbox;
  /** Never readable by a tool, even inside the workspace (see sandbox/secretPaths). */
  secrets?: readonly string[];
  /** What the agent may reach on the network; a tool that needs it refuses without it. */
  network?: NetworkPolicy;
  /** Whose file-name rules apply (this machine's when absent); tests pass 'win32' to check Windows' rules here. */
  platform?: NodeJS.Platform;
}

/** What goes back to the model as a `tool_result`. */
export interface ToolResult {
  content: string;
  isError: boolean;
  /** Pictures for the model after the text (read_file on an image): base64, within the API's limits. */
  images?: { mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string }[];
  /**
   * When set, sent to the model instead of `content` (text and images in order, e.g. an MCP
   * tool's answer); `content` is then the text shown in the chat, with images named.
   */
  blocks?: (TextBlockParam | ImageBlockParam)[];
}

export interface Tool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  /**
   * What the tool does, for the approval modes: reads, file changes, commands, plan edits, an MCP
   * server's call. A tool that does not say is a command: it asks.
   */
  kind?: ToolKind;
  /** Written for a model: what it does, when to use it, what it returns. */
  description: string;
  inputSchema: Schema;
  run(input: z.output<Schema>, context: ToolContext): Promise<ToolResult>;
}
