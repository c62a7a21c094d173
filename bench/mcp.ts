import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runToolCall } from '../main/agent/toolRunner';
import { McpManager } from '../main/mcp/mcpManager';
import { sized } from './quick';
import { formatMs, heading, percentile } from './stats';

const CALLS = sized(300, 30);
const WARMUP = sized(20, 5);
const EVERYTHING = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

/**
 * One MCP tool call through Keel (the agent's tool: name lookup, input check, the SDK call with
 * its signal and timeout, the result turned into the model's blocks) beside the same call with
 * the SDK's Client alone, to the same server-everything over stdio, alternating call by call.
 * `echo` for the round trip, `get-tiny-image` for a result with an image. Prints figures only.
 */
export async function benchMcp(): Promise<void> {
  heading('MCP tool call: through Keel vs the SDK alone (server-everything over stdio)');
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'keel-bench-mcp-ws-')));
  const dataDir = mkdtempSync(join(tmpdir(), 'keel-bench-mcp-data-'));
  const manager = new McpManager({
    dataDir,
    userConfig: () => ({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, alwaysAllow: [], file: 'bench' }),
  });
  const client = new Client({ name: 'bench', version: '0' });
  try {
    await manager.openWorkspace(workspace);
    const tools = await manager.tools(30_000);
    if (tools.length === 0) throw new Error(`server-everything did not start: ${JSON.stringify(manager.list().servers[0])}`);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
    const context = { workspace, signal: new AbortController().signal };
    console.log(`${CALLS} calls each after ${WARMUP} warm-up calls, Keel and SDK alternating; two server processes, one per side`);

    for (const [tool, args] of [
      ['echo', { message: 'hello from the bench' }],
      ['get-tiny-image', {}],
    ] as const) {
      let id = 0;
      const keel = async () => {
        const result = await runToolCall(
          tools,
          { type: 'tool_use', id: `toolu_${id++}`, name: `mcp__everything__${tool}`, input: args, caller: { type: 'direct' } },
          context,
        );
        if (result.isError) throw new Error(`Keel's call failed: ${result.content}`);
      };
      const sdk = async () => {
        const result = await client.callTool({ name: tool, arguments: args });
        if (result.isError) throw new Error('SDK call failed');
      };
      const keelMs: number[] = [];
      const sdkMs: number[] = [];
      for (let i = 0; i < WARMUP + CALLS; i++) {
        for (const [run, samples] of (i % 2 === 0
          ? [
              [keel, keelMs],
              [sdk, sdkMs],
            ]
          : [
              [sdk, sdkMs],
              [keel, keelMs],
            ]) as [() => Promise<void>, number[]][]) {
          const started = performance.now();
          await run();
          if (i >= WARMUP) samples.push(performance.now() - started);
        }
      }
      const line = (label: string, samples: number[]) => `${label} p50 ${formatMs(percentile(samples, 50))}, p95 ${formatMs(percentile(samples, 95))}`;
      console.log(`${tool}: ${line('Keel', keelMs)} | ${line('SDK alone', sdkMs)} | overhead p50 ${formatMs(percentile(keelMs, 50) - percentile(sdkMs, 50))}`);
    }
  } finally {
    await client.close().catch(() => {});
    await manager.dispose();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
