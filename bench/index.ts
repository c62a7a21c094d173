import { benchAgentLoop } from './agentLoop';
import { benchBashThroughput } from './bashThroughput';
import { benchBoardRoundTrip } from './boardRoundTrip';
import { benchChatStreaming } from './chatStreaming';
import { benchContextWindow } from './contextWindow';
import { benchFileTools } from './fileTools';
import { benchSandbox } from './sandbox';
import { benchSearch } from './search';
import { benchMentions } from './mentions';
import { benchMcp } from './mcp';
import { QUICK } from './quick';
import { benchTerminalThroughput } from './terminalThroughput';
import { benchValidator } from './validator';
import { benchWindowStartup } from './windowStartup';

// `npm run bench`: figures and same-run baselines, printed. Nothing here asserts a timing.
// `--quick`: small sizes and a few runs, to prove in CI that every bench still measures (quick.ts
// decides it when it loads, before any bench reads a size).
const only = process.argv.slice(2).filter((arg) => arg !== '--quick');
if (QUICK) console.log('quick mode: small sizes and a few runs; the figures prove each bench measures, not how fast Keel is');
const benches: Record<string, () => unknown> = {
  validator: benchValidator,
  board: benchBoardRoundTrip,
  agentLoop: benchAgentLoop,
  fileTools: benchFileTools,
  bashThroughput: benchBashThroughput,
  window: benchWindowStartup,
  chat: benchChatStreaming,
  terminal: benchTerminalThroughput,
  contextWindow: benchContextWindow,
  search: benchSearch,
  mentions: benchMentions,
  mcp: benchMcp,
  sandbox: benchSandbox,
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
    console.log(`(bench ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
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
