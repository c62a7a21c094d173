import { workspaceTools } from '../agent/workspaceTools';
import { KeelCore } from '../api/core';
import { defaultDataDir } from '../session/dataDir';
import { startWebHost } from '../web/server';
import { parseArgs, parsePort, UsageError } from './args';

export interface WebArgs {
  workspace?: string;
  port: number;
}

export function parseWebArgs(args: readonly string[]): WebArgs {
  const { flags, positional } = parseArgs(args, { values: ['--workspace', '--port'], switches: [] });
  if (positional.length > 0) throw new UsageError(`Unexpected argument "${positional[0]}". Give the folder with --workspace DIR.`);
  const parsed: WebArgs = { port: 0 };
  const workspace = flags.get('--workspace');
  const port = flags.get('--port');
  if (typeof workspace === 'string') parsed.workspace = workspace;
  if (typeof port === 'string') parsed.port = parsePort(port);
  return parsed;
}

/** `rendererDir` is the built renderer, found by the entry script next to itself. */
export async function runWeb(args: WebArgs, rendererDir: string): Promise<number> {
  const core = new KeelCore({ dataDir: defaultDataDir(), host: 'web', version: __KEEL_VERSION__, tools: workspaceTools, log: (m) => console.error(m) });
  try {
    await core.init();
  } catch (error) {
    console.error(`keel: ${(error as Error).message}`);
    return 1;
  }
  if (args.workspace !== undefined) {
    const opened = core.openWorkspace(args.workspace);
    if (!opened.ok) {
      console.error(`keel: ${opened.error.message}`);
      return 1;
    }
  }
  const host = await startWebHost({ core, rendererDir, port: args.port });
  console.log(`Keel is serving ${core.currentSession?.workspace ?? '(no folder yet)'}`);
  console.log(`Open ${host.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  core.currentAgent?.stop();
  await host.close();
  // The person's shells and everything they started end with Keel.
  await core.dispose();
  return 0;
}
