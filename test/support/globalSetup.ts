import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { findChromium, launchChromiumServer } from '../e2e/support/chromium';

const HOW = 'install one (as root: apt-get install chromium) or set KEEL_CHROMIUM=/path/to/chrome, then run the tests again';

/**
 * Before a run that includes the browser tests: make sure a Chromium is there. Where none is
 * found and this is root with apt (a fresh Debian machine or CI), Debian's chromium is installed;
 * otherwise the run stops with one line saying how to get one. Playwright's own download is not
 * tried: it needs a network this project's machines do not have. Then one Chromium is started that
 * every browser test connects to.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide('chromiumEndpoint', undefined);
  if (!(await runIncludesBrowserTests(project))) return;
  const problem = ensureChromium({ find: () => findChromium(), canInstall: canInstallWithApt, install: installWithApt, say: (line) => console.error(line) });
  if (problem) stop(problem);
  // One Chromium for the whole run: starting one per test file cost more than many of the tests.
  const server = await launchChromiumServer();
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}

export interface ChromiumNeeds {
  find(): string | null;
  canInstall(): boolean;
  install(): void;
  say(line: string): void;
}

/** Null when a Chromium is there (found, or installed now); else the one line that says how to get one. */
export function ensureChromium({ find, canInstall, install, say }: ChromiumNeeds): string | null {
  if (find()) return null;
  if (canInstall()) {
    say("keel tests: no Chromium found; installing Debian's chromium for the browser tests (apt-get install chromium)…");
    try {
      install();
    } catch (error) {
      return `apt-get install chromium failed (${(error as Error).message.split('\n')[0]}); ${HOW}.`;
    }
    if (find()) return null;
  }
  return `The browser tests need Chromium and none was found (KEEL_CHROMIUM, chromium, chromium-browser, google-chrome, ~/.cache/ms-playwright): ${HOW}.`;
}

function installWithApt(): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

function stop(line: string): never {
  console.error(`\nkeel tests: ${line}`);
  process.exit(1);
}

function canInstallWithApt(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether any test file of this run (after the command line's filters) is under test/e2e/. */
async function runIncludesBrowserTests(project: TestProject): Promise<boolean> {
  const filters = commandLineFilters(process.argv.slice(2));
  const specifications = await project.vitest.globTestSpecifications(filters);
  return specifications.some((spec) => /[\\/]test[\\/]e2e[\\/]/.test(spec.moduleId));
}

/** The file filters of `vitest [run] [filters…] [--options]`. */
function commandLineFilters(args: string[]): string[] {
  const filters: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('-')) {
      // Options with a separate value (`--config x`, `-t name`) take the next word with them.
      if (!arg.includes('=') && ['--config', '-c', '--root', '-r', '--testNamePattern', '-t', '--project', '--dir', '--reporter', '--outputFile'].includes(arg))
        i++;
      continue;
    }
    if (filters.length === 0 && ['run', 'watch', 'dev', 'related'].includes(arg)) continue;
    filters.push(arg);
  }
  return filters;
}
