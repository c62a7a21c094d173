import { fileURLToPath } from 'node:url';
import { UsageError } from './cli/args';
import { parseRunArgs } from './cli/runArgs';
import { USAGE } from './cli/usage';
import { parseWebArgs } from './cli/webArgs';

/** Where the CLI writes: the console, or a test's lines. */
export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: CliOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

/**
 * The arguments are checked before anything else loads: the core (and what it imports) is loaded
 * only for `web` and `run`, so that `--help`, `--version` and a usage error answer at once.
 */
export async function main(argv: readonly string[], output: CliOutput = consoleOutput): Promise<number> {
  const [command, ...rest] = argv;
  // `keel web --help` and `keel run -h` are asking, not running: answer before the `--` that ends flags.
  const flagsOnly = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if ((command === 'web' || command === 'run') && flagsOnly.some((arg) => arg === '--help' || arg === '-h')) {
    output.out(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'web': {
        const args = parseWebArgs(rest);
        const [{ runWeb }, { preferOwnPath }] = await Promise.all([import('./cli/webCommand'), import('./platform/loginEnvironment')]);
        preferOwnPath();
        // Found next to this entry script: out/main/cli.js serves out/renderer.
        return await runWeb(args, fileURLToPath(new URL('../renderer', import.meta.url)));
      }
      case 'run': {
        const args = parseRunArgs(rest);
        // The search workers start while the core loads (a second or more on a busy machine), so
        // the model's first search finds them ready.
        (await import('./tools/search/workerPool')).warmSearchWorkers();
        const [{ runTask }, { preferOwnPath }] = await Promise.all([import('./cli/runCommand'), import('./platform/loginEnvironment')]);
        preferOwnPath();
        return await runTask(args);
      }
      case '--version':
        output.out(__KEEL_VERSION__);
        return 0;
      case '--help':
      case '-h':
      case 'help':
        output.out(USAGE);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'No command given.' : `Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`keel: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    output.err(`keel: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
