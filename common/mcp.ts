import { z } from 'zod';

/*
 * MCP servers as Claude Code, Cline and others configure them, so existing configs work as they
 * are: `{"mcpServers": {name: {command, args, env} | {type: "http", url, headers}}}`. Unknown keys
 * of a server (a client's own extras) are ignored, not refused.
 */

const StringMap = z.record(z.string(), z.string());

export const McpStdioServerSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'give the program to run'),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  /** Where the server runs; the workspace folder when absent. */
  cwd: z.string().optional(),
  /**
   * Keel's own: run the server inside the agent's OS sandbox (writes only in the workspace, no
   * secrets, only allowed hosts). Off by default: most servers are fetched by npx or uvx, which
   * needs the network and caches outside the folder. A server that asks for it and gets no
   * sandbox does not start.
   */
  sandbox: z.boolean().optional(),
});

export const McpHttpServerSchema = z.object({
  /** "http" and "streamable-http" are Streamable HTTP; "sse" is the older HTTP+SSE transport. */
  type: z.enum(['http', 'streamable-http', 'sse']),
  url: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'the URL must start with http:// or https://'),
  headers: StringMap.optional(),
});

export const McpServerConfigSchema = z.union([McpStdioServerSchema, McpHttpServerSchema]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** A server name: what the person calls it; its tools are `mcp__<name>__<tool>` (sanitized). */
export const McpServerNameSchema = z.string().trim().min(1).max(100);

export const McpScopeSchema = z.enum(['user', 'project']);
export type McpScope = z.infer<typeof McpScopeSchema>;

export const McpServerStateSchema = z.enum(['starting', 'running', 'failed', 'stopped', 'untrusted']);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

export const McpToolInfoSchema = z.object({
  /** The server's own name for the tool. */
  name: z.string(),
  /** The name the model calls: `mcp__<server>__<tool>`. */
  modelName: z.string(),
  description: z.string(),
});

export const McpServerInfoSchema = z.object({
  name: z.string(),
  scope: McpScopeSchema,
  transport: z.enum(['stdio', 'http', 'sse']),
  /** The command line or the URL, for the person to recognise it. */
  target: z.string(),
  config: z.record(z.string(), z.unknown()),
  state: McpServerStateSchema,
  /** Why it failed, in words a person can act on. */
  error: z.string().optional(),
  /** The last lines the server wrote to stderr. */
  stderrTail: z.string().optional(),
  tools: z.array(McpToolInfoSchema),
});
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>;

export const McpListSchema = z.object({
  servers: z.array(McpServerInfoSchema),
  /** Config problems, each naming the file and the key. The other servers still start. */
  configErrors: z.array(z.string()),
  /** The open folder's `.mcp.json`: whether it has servers and whether the person trusted this version of it. */
  project: z.object({ file: z.string().nullable(), trusted: z.boolean(), serverNames: z.array(z.string()) }),
  /** Settings-level "always allow" rules (`mcp:<server>` or `tool:mcp__<server>__<tool>`). */
  alwaysAllowed: z.array(z.string()),
});
export type McpList = z.infer<typeof McpListSchema>;
