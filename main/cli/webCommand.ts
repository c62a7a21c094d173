import { loadAnthropicSdk } from '../models/anthropicSdk';
import { workspaceTools } from '../agent/workspaceTools';
import { KeelCore } from '../api/core';
import { defaultDataDir } from '../session/dataDir';
import { startWebHost } from '../web/server';
import { DEFAULT_WEB_PORT, type WebArgs } from './webArgs';

/** `rendererDir` is the built renderer, found by the entry script next to itself. */
export async function runWeb(args: WebArgs, rendererDir: string): Promise<number> {
  const core = new KeelCore({
    dataDir: defaultDataDir(),
    host: 'web',
    version: __KEEL_VERSION__,
    tools: workspaceTools,
    warmSearch: true,
    log: (m) => console.error(m),
  });
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
  const host = await startHost(core, rendererDir, args.port);
  console.log(`Keel is serving ${core.currentSession?.workspace ?? '(no folder yet)'}`);
  console.log(`Open ${host.url}`);
  // Serving first; the SDK then loads while the person's page does, before a task needs it.
  setImmediate(() => void loadAnthropicSdk());
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

/** The port asked for; without one the default port, or any free port when that one is taken. */
async function startHost(core: KeelCore, rendererDir: string, port: number | undefined) {
  if (port !== undefined) return startWebHost({ core, rendererDir, port });
  try {
    return await startWebHost({ core, rendererDir, port: DEFAULT_WEB_PORT });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.error(`keel: port ${DEFAULT_WEB_PORT} is in use; serving on a free port instead.`);
    return startWebHost({ core, rendererDir, port: 0 });
  }
}
