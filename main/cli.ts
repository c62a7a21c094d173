import { fileURLToPath } from 'node:url';
import { KeelCore } from './api/core';
import { defaultDataDir } from './session/dataDir';
import { startWebHost } from './web/server';

const USAGE = `Usage:
  keel web [--workspace DIR] [--port N]   serve the Keel window to a browser on 127.0.0.1
  keel --version | --help

Data (sessions, settings) is kept in $KEEL_HOME, else ~/.keel.`;

export class UsageError extends Error {}

export interface WebArgs {
  workspace?: string;
  port: number;
}

export function parseWebArgs(args: readonly string[]): WebArgs {
  const parsed: WebArgs = { port: 0 };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--workspace' || flag === '--port') {
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value.`);
      i++;
      if (flag === '--workspace') parsed.workspace = value;
      else {
        const port = Number(value);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
        parsed.port = port;
      }
    } else {
      throw new UsageError(`Unknown option "${flag}".`);
    }
  }
  return parsed;
}

async function runWeb(args: WebArgs): Promise<number> {
  const core = new KeelCore({ dataDir: defaultDataDir(), host: 'web', version: __KEEL_VERSION__, log: (m) => console.error(m) });
  if (args.workspace !== undefined) {
    const opened = core.openWorkspace(args.workspace);
    if (!opened.ok) {
      console.error(`keel: ${opened.error.message}`);
      return 1;
    }
  }
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
  const host = await startWebHost({ core, rendererDir, port: args.port });
  console.log(`Keel is serving ${core.currentSession?.workspace ?? '(no folder yet)'}`);
  console.log(`Open ${host.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await host.close();
  return 0;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'web':
        return await runWeb(parseWebArgs(rest));
      case '--version':
        console.log(__KEEL_VERSION__);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'No command given.' : `Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`keel: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(`keel: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
