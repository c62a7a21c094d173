import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK Keel uses at run time. */
export interface McpSdk {
  Client: typeof Client;
  SSEClientTransport: typeof SSEClientTransport;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
}

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;

/**
 * The MCP SDK, imported when the first server starts: its modules build their zod schemas as
 * they load, 170-200 ms of every start of Keel (keel web, keel run, the window) that has no MCP
 * server to talk to.
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, sse, stdio, http, types]) => {
    loaded = {
      Client: client.Client,
      SSEClientTransport: sse.SSEClientTransport,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
    };
    return loaded;
  });
  return loading;
}

/** The SDK if a server has started since Keel did; an error the SDK made can exist only then. */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}
