import { parseArgs, UsageError } from './args';

export interface RunArgs {
  workspace: string;
  json: boolean;
  resume?: string;
  task: string;
  /** Start the folder's .mcp.json servers too (the person's own always start). */
  trustProjectMcp: boolean;
}

export function parseRunArgs(args: readonly string[]): RunArgs {
  const { flags, positional } = parseArgs(args, { values: ['--workspace', '--resume'], switches: ['--json', '--trust-project-mcp'] });
  const task = positional.join(' ').trim();
  if (task === '') throw new UsageError('Give the task to run, e.g. keel run --workspace . "add a README".');
  const workspace = flags.get('--workspace');
  const resume = flags.get('--resume');
  return {
    workspace: typeof workspace === 'string' ? workspace : process.cwd(),
    json: flags.get('--json') === true,
    trustProjectMcp: flags.get('--trust-project-mcp') === true,
    ...(typeof resume === 'string' ? { resume } : {}),
    task,
  };
}
