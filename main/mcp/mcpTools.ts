import type { Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { AgentTool } from '../agent/toolRunner';
import type { ToolResult } from '../tools/types';
import { McpUnavailableError, type McpConnection } from './mcpConnection';
import { toToolResult } from './mcpResult';
import { loadedMcpSdk } from './mcpSdk';
import { mcpToolName, uniqueToolName } from './toolNames';

/** Which server and tool an agent tool calls, for the approval card and the `mcp:<server>` rule. */
export interface McpToolOrigin {
  server: string;
  tool: string;
  /** The rule "allow this server" adds: `mcp:<server segment>`. */
  serverRule: string;
}

export type McpAgentTool = AgentTool & { mcp: McpToolOrigin };

const MAX_DESCRIPTION = 2000;

/** The agent tools of one server, named `mcp__<server>__<tool>`, with the server's own schemas. */
export function agentToolsOf(connection: McpConnection, options: { callTimeoutMs?: number } = {}): McpAgentTool[] {
  const taken = new Set<string>();
  const segment = connection.segment;
  return connection.tools.map((tool) => {
    const name = uniqueToolName(mcpToolName(connection.name, tool.name, segment), tool.name, taken);
    taken.add(name);
    const description = `${(tool.description ?? tool.title ?? tool.name).slice(0, MAX_DESCRIPTION)}\n(MCP server "${connection.name}", tool "${tool.name}")`;
    return {
      name,
      kind: 'mcp',
      description,
      // The server judges its own arguments; the model sees its JSON schema.
      inputSchema: z.record(z.string(), z.unknown()),
      modelSchema: { ...tool.inputSchema, type: 'object' } as ApiTool['input_schema'],
      mcp: { server: connection.name, tool: tool.name, serverRule: `mcp:${segment}` },
      run: (input, context) => callMcpTool(connection, tool.name, input as Record<string, unknown>, context.signal, options.callTimeoutMs),
    };
  });
}

async function callMcpTool(
  connection: McpConnection,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs?: number,
): Promise<ToolResult> {
  const label = `${connection.name}/${tool}`;
  try {
    return toToolResult(await connection.callTool(tool, args, { signal, ...(timeoutMs ? { timeoutMs } : {}) }), label);
  } catch (error) {
    return { isError: true, content: describeCallError(error, connection, label, signal) };
  }
}

function describeCallError(error: unknown, connection: McpConnection, label: string, signal: AbortSignal): string {
  const tail = connection.stderrTail;
  const stderr = tail ? `\nIts last stderr lines:\n${tail}` : '';
  if (signal.aborted) return `${label} was cancelled: the person stopped the task. The server was told to cancel the request.`;
  if (error instanceof McpUnavailableError) {
    return `The MCP tool ${label} could not be called: ${error.message}.${stderr}\nDo not call this server's tools again in this task; do the work another way or tell the person.`;
  }
  // An McpError exists only once the SDK has loaded (see mcpSdk).
  const sdk = loadedMcpSdk();
  const mcpError = sdk !== undefined && error instanceof sdk.McpError ? error : undefined;
  const is = (code: number | undefined) => mcpError !== undefined && mcpError.code === code;
  if (is(sdk?.ErrorCode.RequestTimeout)) {
    return `${label} did not answer in time and was cancelled. Try a smaller request, or do the work another way.`;
  }
  if (is(sdk?.ErrorCode.ConnectionClosed)) {
    return `The MCP server "${connection.name}" closed the connection (it may have crashed) while running ${label}; the call has no result.${stderr}\nThe next call to this server restarts it once; retry only if the call is safe to repeat.`;
  }
  if (is(sdk?.ErrorCode.InvalidParams)) {
    return `${label} refused its arguments: ${mcpError!.message}. Fix the arguments to match the tool's input schema and call it again.`;
  }
  return `${label} failed: ${error instanceof Error ? error.message : String(error)}`;
}
