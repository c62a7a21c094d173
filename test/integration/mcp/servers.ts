import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** server-everything, run by its bin path so nothing is downloaded at test time. */
export const EVERYTHING = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url)), 'stdio'],
};

export const CRASHING = { command: process.execPath, args: [fileURLToPath(new URL('./fixtures/crashingServer.mjs', import.meta.url))] };

/**
 * A Streamable HTTP MCP server on loopback, made with the SDK's server classes: one stateless
 * McpServer per request, a `greet` tool that answers only when the Authorization header came.
 */
export async function startHttpMcpServer(token: string): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const http: Server = createServer(async (req, res) => {
    const authorized = req.headers.authorization === `Bearer ${token}`;
    const server = new McpServer({ name: 'http-test', version: '1.0.0' });
    server.registerTool('greet', { description: 'Greets someone by name.', inputSchema: { name: z.string() } }, async ({ name }) => {
      calls.push(name);
      return authorized
        ? { content: [{ type: 'text', text: `Hello, ${name}, over HTTP.` }] }
        : { isError: true, content: [{ type: 'text', text: 'missing token' }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
