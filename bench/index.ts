import { readFileSync } from 'node:fs';
import { QUICK } from './quick';

// `npm run bench`: figures and same-run baselines, printed. Nothing here asserts a timing.
// `--quick`: small sizes and a few runs, to prove in CI that every bench still measures (quick.ts
// decides it when it loads, before any bench reads a size).
const only = process.argv.slice(2).filter((arg) => arg !== '--quick');
if (QUICK) console.log('quick mode: small sizes and a few runs; the figures prove each bench measures, not how fast Keel is');
// Each bench is loaded when it runs: one bench alone loads only its own code, and a bench that
// does not even load fails alone, saying why, like one that cannot measure.
const benches: Record<string, () => Promise<unknown>> = {
  validator: async () => (await import('./validator')).benchValidator(),
  board: async () => (await import('./boardRoundTrip')).benchBoardRoundTrip(),
  agentLoop: async () => (await import('./agentLoop')).benchAgentLoop(),
  fileTools: async () => (await import('./fileTools')).benchFileTools(),
  bashThroughput: async () => (await import('./bashThroughput')).benchBashThroughput(),
  window: async () => (await import('./windowStartup')).benchWindowStartup(),
  chat: async () => (await import('./chatStreaming')).benchChatStreaming(),
  terminal: async () => (await import('./terminalThroughput')).benchTerminalThroughput(),
  contextWindow: async () => (await import('./contextWindow')).benchContextWindow(),
  search: async () => (await import('./search')).benchSearch(),
  searchCold: async () => (await import('./searchCold')).benchSearchCold(),
  mentions: async () => (await import('./mentions')).benchMentions(),
  mcp: async () => (await import('./mcp')).benchMcp(),
  sandbox: async () => (await import('./sandbox')).benchSandbox(),
  sandboxApprovals: async () => (await import('./sandboxApprovals')).benchSandboxApprovals(),
  helperWorktree: async () => (await import('./helperWorktree')).benchHelperWorktree(),
  helpersWallTime: async () => (await import('./helpersWallTime')).benchHelpersWallTime(),
  catalogueLookup: async () => (await import('./catalogueLookup')).benchCatalogueLookup(),
};

const unknown = only.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`no bench named ${unknown.join(', ')}; the benches are: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}

const failed: string[] = [];
const log = console.log.bind(console);
for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  // A figure that is not a number is a bench that did not measure, whatever else it printed.
  const notNumbers: string[] = [];
  console.log = (...parts: unknown[]) => {
    const line = parts.map(String).join(' ');
    if (/\bNaN\b|\bInfinity\b/.test(line)) notNumbers.push(line.trim());
    log(...parts);
  };
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  try {
    await run();
    if (notNumbers.length > 0) throw new Error(`it printed ${notNumbers.length} figure(s) that are not numbers, first: ${notNumbers[0]}`);
  } catch (error) {
    // A bench that cannot measure says why; the others still run, and the whole run fails.
    console.error(`bench ${name} could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    failed.push(name);
  } finally {
    console.log = log;
    // What each bench costs the run: CI's quick run has a budget of 2 minutes in all.
    const cpu = cpuSeconds();
    const cpuPart = cpu === null || cpuBefore === null ? '' : `, ${(cpu - cpuBefore).toFixed(1)} s of CPU, its children included`;
    console.log(`(bench ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s${cpuPart})`);
  }
}
if (failed.length > 0) {
  console.error(`${failed.length} bench(es) failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
// Every bench closes what it started; one that leaves a process, socket or timer behind would hold
// the run open for ever. Say what is left and fail, instead of hanging.
setTimeout(() => {
  console.error(`the benches ended but left these behind, keeping the process alive: ${process.getActiveResourcesInfo().join(', ')}`);
  process.exit(1);
}, 10_000).unref();

/**
 * CPU seconds of this process and of the children it has waited for (Chromium, keel web, the
 * sandbox helper), from /proc (Linux; null elsewhere). On a shared machine the wall time tells how
 * busy the others are; this tells what the benches cost.
 */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the command name in parentheses: fields 14-17 are utime, stime, cutime, cstime, in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return null;
  }
}
