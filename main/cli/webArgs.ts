import { parseArgs, parsePort, UsageError } from './args';

export interface WebArgs {
  workspace?: string;
  /** Unset: DEFAULT_WEB_PORT when free, so the window's stored layout (per origin) survives a restart. */
  port?: number;
}

export const DEFAULT_WEB_PORT = 7460;

export function parseWebArgs(args: readonly string[]): WebArgs {
  const { flags, positional } = parseArgs(args, { values: ['--workspace', '--port'], switches: [] });
  if (positional.length > 0) throw new UsageError(`Unexpected argument "${positional[0]}". Give the folder with --workspace DIR.`);
  const parsed: WebArgs = {};
  const workspace = flags.get('--workspace');
  const port = flags.get('--port');
  if (typeof workspace === 'string') parsed.workspace = workspace;
  if (typeof port === 'string') parsed.port = parsePort(port);
  return parsed;
}
