import { fileURLToPath } from 'node:url';
import { UsageError } from './cli/args';
import { parseRunArgs, runTask } from './cli/runCommand';
import { parseWebArgs, runWeb } from './cli/webCommand';
import { preferOwnPath } from './platform/loginEnvironment';

export { parseWebArgs, UsageError };

const USAGE = `Usage:
  keel web [--workspace DIR] [--port N]
      Serve the Keel window to a browser on 127.0.0.1 (the URL printed carries a secret token).
      Port: N, else 7460 when free, else any free port; 0 picks a free one.
  keel run [--workspace DIR] [--json] [--resume SESSION] [--trust-project-mcp] "task"
      Run one task headless in DIR (default: the current folder). The MCP servers of your
      settings start; the folder's .mcp.json servers only with --trust-project-mcp.
      Exit codes: 0 done, 3 stopped with an unfinished plan, 1 error, 2 usage, 130 interrupted.
  keel --version | --help

Model: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, KEEL_MODEL (or ANTHROPIC_MODEL), or the settings file.
Data (sessions, settings.json) is kept in $KEEL_HOME, else ~/.keel.`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  preferOwnPath();
  try {
    switch (command) {
      case 'web':
        // Found next to this entry script: out/main/cli.js serves out/renderer.
        return await runWeb(parseWebArgs(rest), fileURLToPath(new URL('../renderer', import.meta.url)));
      case 'run':
        return await runTask(parseRunArgs(rest));
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
