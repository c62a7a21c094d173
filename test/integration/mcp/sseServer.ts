import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

/**
 * An MCP server on the older HTTP+SSE transport (GET /sse opens the event stream, POST
 * /messages?sessionId=… carries the client's messages), made with the SDK's own server classes:
 * a `shout` tool that answers only when the Authorization header came with the stream.
 */
export async function startSseMcpServer(token: string): Promise<{ url: string; calls: string[]; streams: () => number; close(): Promise<void> }> {
  const calls: string[] = [];
  const transports = new Map<string, SSEServerTransport>();
  let streams = 0;
  const http: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      streams++;
      const authorized = req.headers.authorization === `Bearer ${token}`;
      const server = new McpServer({ name: 'sse-test', version: '1.0.0' });
      server.registerTool('shout', { description: 'Says a word loudly.', inputSchema: { word: z.string() } }, async ({ word }) => {
        calls.push(word);
        return authorized
          ? { content: [{ type: 'text', text: `${word.toUpperCase()}! (over SSE)` }] }
          : { isError: true, content: [{ type: 'text', text: 'missing token' }] };
      });
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => {
        transports.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end('no such session');
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    calls,
    streams: () => streams,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
